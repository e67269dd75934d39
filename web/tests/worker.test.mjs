// The simulator's Web Worker: an edit that arrives while a simulation runs
// supersedes it (the stale result is never shown), and without a worker the
// page still works, simulating on the main thread.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a newer edit supersedes a running simulation; its stale result is dropped', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  // Big enough that a simulation takes a while in the worker.
  const fragment = await page.evaluate(() => window.wasmBindings.encodeLink({
    version: 1, title: 'busy', seed: 1,
    connect: { workers: 1000, connectors: [{ name: 'c', tasks: 100, count: 1000 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }],
  }));
  await page.goto(server.url + '#' + fragment);
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  await page.evaluate(() => {
    window.__shown = [];
    new MutationObserver(() => window.__shown.push(document.querySelector('main').dataset.shown))
      .observe(document.querySelector('main'), { attributes: true, attributeFilter: ['data-shown'] });
  });
  await openEditor(page);
  const first = +(await page.locator('main').getAttribute('data-request'));
  // Two edits a frame apart: the first (about half a second of simulation
  // for 100,000 tasks) is still running in the worker when the second arrives.
  await page.evaluate(async () => {
    const input = document.getElementById('workers');
    const commit = (v) => { input.value = v; input.dispatchEvent(new Event('change', { bubbles: true })); };
    commit('1001');
    await new Promise((r) => requestAnimationFrame(() => r()));
    commit('1002');
  });
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request === r + 2, first);
  await simulationShown(page, 120000);
  const shown = await page.evaluate(() => window.__shown);
  assert.ok(!shown.includes(String(first + 1)), `the superseded result was shown: ${shown}`);
  assert.equal(shown.at(-1), String(first + 2));
  // The busy worker was cut short, not waited for.
  assert.ok(+(await page.locator('main').getAttribute('data-superseded')) >= 1);
  const lanes = await page.locator('#mode-bar').getAttribute('data-mode');
  assert.equal(lanes, 'summary');
  assert.equal((await page.evaluate(() => window.wasmBindings.decodeLink(location.hash))).connect.workers, 1002);
  assert.deepEqual(page.errors, []);
});

test('without a worker the page simulates on the main thread', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/rebalance-worker_loader.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/404/.test(m.text())) errors.push(m.text()); });
  // A scenario heavy enough to go to the worker, if there were one.
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  const fragment = await page.evaluate(() => window.wasmBindings.encodeLink({
    version: 1, title: 'no worker', seed: 1,
    connect: { workers: 20, connectors: [{ name: 'c', tasks: 100, count: 30 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }],
  }));
  await page.goto(server.url + '#' + fragment);
  await timelineReady(page);
  await page.waitForSelector('main[data-worker="unavailable"]');
  assert.equal(await page.locator('main').getAttribute('data-ran-in'), 'main-thread');
  assert.match(await page.locator('#sim-status').textContent(), /main thread \(no Web Worker\)/);
  assert.equal(await page.locator('article.column').count(), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

// The preset's shipped result (index.html fetches it as the page loads) and
// the simulator's failure race: whichever comes first, the failure is said.
test('with neither a worker nor the simulator script, a late shipped result does not hide the failure', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/rebalance-worker*', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await context.route('**/results/*', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '#p=connect/worker-joins');
  const failure = page.locator('.notice.failure');
  await failure.waitFor({ timeout: 20000 });
  // Past the shipped result's arrival: the failure is still said.
  await page.waitForTimeout(2500);
  assert.match(await failure.textContent(), /simulator could not be loaded/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('with neither a worker nor the simulator script the page says so instead of waiting', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/rebalance-worker*', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url + '#p=connect/worker-joins');
  await page.waitForSelector('main[data-worker="unavailable"]');
  const failure = page.locator('.notice.failure');
  await failure.waitFor({ timeout: 20000 });
  assert.match(await failure.textContent(), /simulator could not be loaded/);
  assert.match(await failure.textContent(), /rebalance-worker\.js/);
  // The JS API's simulate rejects with the same reason.
  const rejected = await page.evaluate(() => window.wasmBindings.simulate(window.wasmBindings.decodeLink('p=connect/worker-joins'))
    .then(() => null, (e) => String(e)));
  assert.match(rejected, /simulator could not be loaded/);
  await page.screenshot({ path: new URL('./screenshots/no-simulator.png', import.meta.url).pathname });
  assert.deepEqual(errors, []);
  await context.close();
});
