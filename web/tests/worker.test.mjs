// Where simulations run. The simulator's Web Worker: an edit that arrives
// while a simulation runs supersedes it (the stale result is never shown),
// and without a worker the page still works, simulating on the main thread.
// A small scenario's edit is simulated in the edit's own task on the main
// thread (web/src/worker/brief_sim.rs), so the edit and its result are drawn
// in one frame; a storm or a big scenario still goes to the worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A link to `workers` Connect workers, 100 tasks each, and one joining at 30 s. */
const joinLink = (page, title, workers) => page.evaluate(([title, workers]) => window.wasmBindings.encodeLink({
  version: 1, title, seed: 1,
  connect: { workers, connectors: [{ name: 'c', tasks: 100, count: workers }] },
  events: [{ at_ms: 30000, type: 'worker_join' }],
}), [title, workers]);

test('a newer edit supersedes a running simulation; its stale result is dropped', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  // Big enough that a simulation takes a while in the worker.
  await page.goto(server.url + '#' + await joinLink(page, 'busy', 1000));
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

test('the simulator\'s worker gives its thread back while a big scenario runs, and answers requests in order', async () => {
  // Worker.terminate() does not stop the task a worker is running (Chromium
  // lets it finish), so a superseded run stops only where the worker's run
  // gives its thread back: it runs in slices (web/src/worker/slices.rs).
  // Seen from outside: a message the worker answers at once (one it cannot
  // read) is answered before the big run's result, and a second request
  // posted meanwhile (as a sweep posts its next point) is answered after it.
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  const order = await page.evaluate(() => new Promise((done) => {
    const scenario = (workers) => JSON.stringify({
      version: 1, title: 'big', seed: 1,
      connect: { workers, connectors: [{ name: 'c', tasks: 100, count: workers }] },
      events: [{ at_ms: 30000, type: 'worker_join' }],
    });
    const seen = [];
    const worker = new Worker('./rebalance-worker_loader.js');
    worker.onmessage = (e) => {
      if (e.data === 'ready') {
        worker.postMessage({ id: 1, task: { simulate: { scenario: scenario(1000) } } });
        worker.postMessage({ id: 2, task: { simulate: { scenario: scenario(3) } } });
        // Waiting behind the first request, before the run's next slice.
        worker.postMessage('not a request');
        return;
      }
      const [kind, body] = Object.entries(e.data)[0];
      if (kind === 'progress') return;
      seen.push(`${kind} ${body.id ?? '-'}`);
      if (seen.length === 3) { worker.terminate(); done(seen); }
    };
  }));
  assert.deepEqual(order, ['failed -', 'simulated 1', 'simulated 2']);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Opens `hash`, waits for the worker's answer and the brief simulator, and opens the editor. */
async function readyToEdit(page, hash) {
  await page.goto(server.url + hash);
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  // The module loads once the editor is open (and the worker has answered).
  await openEditor(page);
  await page.waitForSelector('main[data-brief="ready"]', { timeout: 30000 });
}

/**
 * Sets `field` to `value` as a person would (a `change` event), and resolves
 * with what the page shows at the next animation frame: the request, the
 * shown result and the lanes of the first column.
 */
const editAndLookAtNextFrame = (page, field, value) => page.evaluate(([sel, v]) => new Promise((done) => {
  const input = document.querySelector(sel);
  input.value = String(v);
  input.dispatchEvent(new Event('change', { bubbles: true }));
  requestAnimationFrame(() => {
    const main = document.querySelector('main');
    done({
      request: main.dataset.request, shown: main.dataset.shown, ranIn: main.dataset.ranIn,
      lanes: [...document.querySelectorAll('article.column')[0].querySelectorAll('g.lane')].map((g) => g.dataset.lane),
    });
  });
}), [field, value]);

test('a small edit is simulated in its own task and drawn in the same frame as the typed value', async () => {
  for (const [id, field] of [['connect/worker-joins', '#workers'], ['streams/stateful-scale-out', '#instances']]) {
    const page = await newPage(browser);
    await readyToEdit(page, `#p=${id}`);
    const before = +(await page.locator('main').getAttribute('data-request'));
    const n = +(await page.inputValue(field));
    const frame = await editAndLookAtNextFrame(page, field, n + 1);
    assert.equal(frame.request, String(before + 1), id);
    assert.equal(frame.shown, frame.request, `${id}: the next frame shows the edit's result`);
    assert.equal(frame.ranIn, 'inline', id);
    assert.ok(frame.lanes.length > 0, id);
    assert.match(await page.locator('#sim-status').textContent(), /on the main thread \(small enough to skip the Web Worker\)/);
    // The same result as the simulator's JS API gives for the edited scenario.
    await simulationShown(page);
    const fingerprints = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.fingerprint));
    const expected = await page.evaluate(async () => (await window.wasmBindings.simulate(window.wasmBindings.decodeLink(location.hash)))
      .variants.map((v) => v.fingerprint));
    assert.deepEqual(fingerprints, expected, id);
    assert.equal(await page.locator('main').getAttribute('data-superseded'), '0');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a storm and a big scenario are still simulated in the worker', async () => {
  const page = await newPage(browser);
  // The storm's run reaches a progress report: the brief run gives up.
  await readyToEdit(page, '#p=connect/rebalance-storm');
  let n = +(await page.inputValue('#workers'));
  await page.fill('#workers', String(n + 1));
  await page.press('#workers', 'Enter');
  await page.waitForFunction(() => document.querySelector('main')?.dataset.ranIn === 'worker');
  await simulationShown(page, 120000);
  assert.match(await page.locator('#sim-status').textContent(), /in a Web Worker/);
  // 300 workers × 30,000 tasks: estimated far above a brief run.
  await page.goto(server.url + '#' + await joinLink(page, 'big', 300));
  await simulationShown(page, 120000);
  await openEditor(page);
  await page.waitForSelector('main[data-brief="ready"]', { timeout: 30000 });
  n = +(await page.inputValue('#workers'));
  const before = await page.locator('main').getAttribute('data-request');
  await page.fill('#workers', String(n + 1));
  await page.press('#workers', 'Enter');
  await page.waitForFunction((r) => document.querySelector('main').dataset.request !== r, before);
  await simulationShown(page, 120000);
  // In the worker, or shared with its helper (started by the first big run).
  assert.match(await page.locator('main').getAttribute('data-ran-in'), /^workers?$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a big scenario runs half its protocols in a helper worker, with the same result', async () => {
  const page = await newPage(browser);
  // 300 workers × 30,000 tasks: the first run starts the worker's helper and
  // runs alone; the next is shared (web/src/worker/split_run.rs).
  await page.goto(server.url + '#p=connect/worker-joins');
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  await readyToEdit(page, '#' + await joinLink(page, 'big', 300));
  for (const workers of [301, 302]) {
    const before = await page.locator('main').getAttribute('data-request');
    await page.fill('#workers', String(workers));
    await page.press('#workers', 'Enter');
    await page.waitForFunction((r) => document.querySelector('main').dataset.request !== r, before);
    await simulationShown(page, 120000);
  }
  assert.equal(await page.locator('main').getAttribute('data-ran-in'), 'workers');
  assert.match(await page.locator('#sim-status').textContent(), /in two Web Workers/);
  // The same result as one thread gives: the simulator's JS API on the main thread.
  const fingerprints = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.fingerprint));
  const expected = await page.evaluate(async () => (await window.wasmBindings.simulate(window.wasmBindings.decodeLink(location.hash)))
    .variants.map((v) => v.fingerprint));
  assert.equal(fingerprints.length, 2);
  assert.deepEqual(fingerprints, expected);
  const rounds = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => +c.dataset.rounds));
  assert.ok(rounds.every((n) => n > 0), `${rounds}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * Opens `url` (the storm: a preset that ships no result, so the worker
 * answers it), lets the page settle after the worker's answer, and checks
 * that the simulator's module has not been loaded on the main thread.
 */
async function settledWithoutTheModule(page, url) {
  await page.goto(url);
  await timelineReady(page, 120000);
  await page.waitForFunction(() => document.querySelector('main')?.dataset.ranIn === 'worker');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 700)));
  assert.equal(await page.locator('main').getAttribute('data-brief'), 'off');
  assert.equal(await page.evaluate(() => typeof wasm_bindgen), 'undefined', 'no simulator script on the page');
}

test('the simulator loads on the main thread only once the editor is open', async () => {
  const page = await newPage(browser);
  await settledWithoutTheModule(page, server.url + '#p=connect/rebalance-storm');
  await openEditor(page);
  await page.waitForSelector('main[data-brief="ready"]', { timeout: 30000 });
  assert.equal(await page.evaluate(() => typeof wasm_bindgen), 'function', 'the simulator script is on the page');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('once the editor is open the comparison is drawn once off screen, and not for a storm', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/rolling-restart');
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  assert.equal(await page.locator('main').getAttribute('data-warm'), 'off', 'nothing drawn off screen before the editor opens');
  await openEditor(page);
  await page.waitForSelector('main[data-warm="done"]', { timeout: 30000 });
  // Off screen: none of it in the document.
  assert.equal(await page.locator('svg.timeline').count(), await page.locator('article.column').count());
  assert.equal(await page.locator('.story').count(), 1);
  assert.deepEqual(page.errors, []);
  await page.close();
  const storm = await newPage(browser);
  await readyToEdit(storm, '#p=connect/rebalance-storm');
  await storm.waitForSelector('main[data-warm="skipped"]', { timeout: 30000 });
  assert.deepEqual(storm.errors, []);
  await storm.close();
});

test('an embed, which has no editor, never loads the simulator on the main thread', async () => {
  const page = await newPage(browser);
  await settledWithoutTheModule(page, server.url + '?embed=1#p=connect/rebalance-storm');
  assert.deepEqual(page.errors, []);
  await page.close();
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
