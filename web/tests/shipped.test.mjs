// The presets' results the site ships (`rebalance presets --results`, run by
// Trunk's post_build hook): a preset link shows its shipped result before the
// simulator has answered; the simulator's answer to the same request checks
// it (the same bytes change nothing, other bytes replace it); a file that is
// not a result is ignored; links that name no shipped result fetch none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor, DIST } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Counts the simulator workers' answers (not `ready`, not progress) and records console warnings and result fetches. */
async function watch(page) {
  page.warnings = [];
  page.results = [];
  page.on('console', (m) => { if (m.type() === 'warning') page.warnings.push(m.text()); });
  page.on('request', (r) => { if (r.url().includes('/results/')) page.results.push(new URL(r.url()).pathname); });
  await page.addInitScript(() => {
    window.__answers = 0;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (e.data && typeof e.data === 'object' && !('progress' in e.data) && !('expensive' in e.data)) window.__answers++;
        });
      }
    };
  });
}

const ranIn = (page) => page.locator('main').getAttribute('data-ran-in');
const fingerprints = (page) => page.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.fingerprint));
const wasmFingerprints = (page, id) => page.evaluate(async (id) => {
  const result = await window.wasmBindings.simulate(window.wasmBindings.decodeLink(`p=${id}`));
  return result.variants.map((v) => v.fingerprint);
}, id);

test('a preset link shows the shipped result; the worker\'s equal answer changes nothing', async () => {
  const page = await newPage(browser);
  await watch(page);
  await page.goto(`${server.url}#p=connect/rolling-restart`);
  await timelineReady(page);
  await simulationShown(page);
  assert.equal(await ranIn(page), 'site-build');
  assert.match(await page.locator('#sim-status').textContent(), /simulated when this site was built/);
  const shown = await page.locator('main').getAttribute('data-shown');
  // The worker simulates the same request anyway (and is warm for the first edit).
  await page.waitForFunction(() => window.__answers >= 1);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
  assert.equal(await ranIn(page), 'site-build');
  assert.equal(await page.locator('main').getAttribute('data-shown'), shown);
  assert.deepEqual(await fingerprints(page), await wasmFingerprints(page, 'connect/rolling-restart'));
  assert.deepEqual(page.results, ['/results/connect/rolling-restart.bin'], 'fetched once, by index.html');
  // An edit is the simulator's to answer: with the worker's answer in and
  // the editor open it loads on the main thread too, and a preset's edit is
  // brief enough to run there.
  await openEditor(page);
  await page.waitForSelector('main[data-brief="ready"]');
  const workers = +(await page.inputValue('#workers'));
  await page.fill('#workers', String(workers + 1));
  await page.press('#workers', 'Enter');
  await page.waitForFunction(() => document.querySelector('main')?.dataset.ranIn === 'inline');
  await simulationShown(page);
  assert.equal(await page.locator('main').getAttribute('data-superseded'), '0');
  assert.deepEqual(page.warnings, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a shipped result that differs from the simulator\'s answer is replaced by it', async () => {
  const page = await newPage(browser);
  await watch(page);
  // Another preset's result where worker-joins' should be: a stale cached file, say.
  const other = await readFile(join(DIST, 'results/connect/worker-bounce.bin'));
  await page.route('**/results/connect/worker-joins.bin', (route) => route.fulfill({ status: 200, body: other }));
  await page.goto(`${server.url}#p=connect/worker-joins`);
  await page.waitForFunction(() => document.querySelector('main')?.dataset.ranIn === 'worker');
  await simulationShown(page);
  await timelineReady(page);
  assert.deepEqual(await fingerprints(page), await wasmFingerprints(page, 'connect/worker-joins'));
  assert.ok(page.warnings.some((w) => /differs from the simulator's/.test(w)), page.warnings.join('\n'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a shipped result that is not one is ignored; the simulator answers', async () => {
  const page = await newPage(browser);
  await watch(page);
  await page.route('**/results/connect/worker-dies.bin', (route) => route.fulfill({ status: 200, body: 'not a result' }));
  await page.goto(`${server.url}#p=connect/worker-dies`);
  await timelineReady(page);
  await simulationShown(page);
  assert.equal(await ranIn(page), 'worker');
  assert.deepEqual(await fingerprints(page), await wasmFingerprints(page, 'connect/worker-dies'));
  assert.ok(page.warnings.some((w) => /Not using the site's precomputed result/.test(w)), page.warnings.join('\n'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('links that name no shipped result fetch none', async () => {
  for (const hash of ['#p=no/such-preset', '#p=sweeps/connect-delay-vs-bounce', '']) {
    const page = await newPage(browser);
    await watch(page);
    await page.goto(`${server.url}${hash}`);
    await page.waitForSelector('main');
    await page.waitForFunction(() => window.wasmBindings?.encodeLink);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
    assert.deepEqual(page.results, [], hash);
    assert.deepEqual(page.errors, [], hash);
    await page.close();
  }
});
