// Issue #15, in the page: a rebalance storm is drawn with the engine's
// verdict, a hostile link shows its progress and can be cancelled, a
// scenario far above the interactive range is asked about before it runs,
// and the page answers input throughout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Milliseconds from a `?` keypress to the help overlay on screen, then closes it. */
async function helpKeyLatency(page) {
  const started = Date.now();
  await page.keyboard.press('?');
  await page.waitForSelector('#help-title', { timeout: 2000 });
  const ms = Date.now() - started;
  await page.keyboard.press('Escape');
  await page.waitForSelector('#help-title', { state: 'detached', timeout: 2000 });
  return ms;
}

/** A `#s=` fragment for a scenario, from the page's own link encoder. */
async function linkFor(page, scenario) {
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  return page.evaluate((s) => window.wasmBindings.encodeLink(s), scenario);
}

test('the storm preset draws the storm, its verdict and the cut; the page stays responsive', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/rebalance-storm');
  // While it simulates (or right after), a keypress is handled at once.
  await page.waitForSelector('main');
  const during = await helpKeyLatency(page);
  await timelineReady(page, 60000);
  await simulationShown(page, 60000);
  const storm = page.locator('article.column[data-variant="0"]');
  const sane = page.locator('article.column[data-variant="1"]');
  const verdict = await storm.locator('.run-cut').textContent();
  assert.match(verdict, /Stopped: the group did not stabilise: 10,000 rebalance rounds in .+; stopped here\./);
  assert.match(verdict, /cover the run up to the cut/);
  assert.equal(await sane.locator('.run-cut').count(), 0, 'the sane setting settles');
  // The storm's timeline ends at the cut, marked there (the whole run
  // shown: the default view focuses on the first events).
  await page.click('#zoom-whole');
  const cutAt = await storm.getAttribute('data-cut');
  assert.ok(+cutAt > 60000, `cut at ${cutAt}`);
  assert.equal(await storm.getAttribute('data-end'), cutAt);
  // Its end of axis is drawn at the right edge and marked as the cut.
  const end = storm.locator('svg.timeline rect.axis-end').first();
  assert.equal(await end.count(), 1);
  const [stormFill, saneFill] = await Promise.all([end, sane.locator('svg.timeline rect.axis-end').first()]
    .map((l) => l.evaluate((e) => getComputedStyle(e).stroke)));
  assert.notEqual(stormFill, saneFill, 'the cut is marked, the sane end is not');
  // It is drawn: thousands of rounds, the sane column only a few.
  assert.ok(+(await storm.getAttribute('data-rounds')) > 5000);
  assert.ok(+(await sane.getAttribute('data-rounds')) < 20);
  const after = await helpKeyLatency(page);
  assert.ok(during < 1500 && after < 1500, `keypress → help: ${during} ms while simulating, ${after} ms after`);
  await screenshot(page, 'storm-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'storm-390');
  assert.deepEqual(page.errors, []);
});

test('a hostile link (rebalance.timeout.ms 10, 1 ms heartbeats) shows progress and can be cancelled', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const fragment = await linkFor(page, {
    version: 1, title: 'hostile: rebalance.timeout.ms 10, heartbeats every 1 ms', seed: 1,
    connect: { workers: 3, connectors: [{ name: 'c', tasks: 60 }],
               config: { 'rebalance.timeout.ms': 10, 'heartbeat.interval.ms': 1 } },
    // Four variants, so the storm runs a few seconds: time to cancel it.
    compare: ['eager', 'sessioned', 'compatible', 'eager'].map((p, i) => ({ label: `${p} ${i}`, config: { 'connect.protocol': p } })),
    events: [{ at_ms: 30000, type: 'worker_join' }],
  });
  await page.goto(server.url + '#' + fragment);
  // Small, so not asked about; a storm, so long enough to report progress.
  await page.waitForSelector('#run-status[data-state="running"]', { timeout: 20000 });
  assert.match(await page.locator('#run-words').textContent(),
    /^Simulating… variant [1-4] of 4: .+ simulated, [\d,]+ rebalance rounds, [\d,]+ events$/);
  // Keyboard: Tab to Cancel and press Enter.
  await page.focus('#run-cancel');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#run-status[data-state="cancelled"]', { timeout: 2000 });
  assert.match(await page.locator('#run-status').textContent(), /Simulation cancelled\. Nothing is drawn\./);
  // Nothing arrives for the cancelled run, and the page is usable.
  await page.waitForTimeout(3000);
  assert.equal(await page.locator('article.column').count(), 0);
  assert.ok((await helpKeyLatency(page)) < 1500);
  // Run anyway: it runs to its verdict (the variants storm).
  await page.click('#run-anyway');
  await simulationShown(page, 60000);
  await timelineReady(page);
  assert.equal(await page.locator('article.column').count(), 4);
  assert.ok((await page.locator('.run-cut').count()) >= 2);
  assert.match(await page.locator('.run-cut').first().textContent(), /10,000 rebalance rounds/);
  assert.equal(await page.locator('#run-status').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('a scenario at the size limits with four variants is asked about first; Run it shows progress, Cancel keeps the page', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const protocols = ['eager', 'sessioned', 'compatible', 'sessioned'];
  const fragment = await linkFor(page, {
    version: 1, title: 'the largest link', seed: 1,
    connect: { workers: 2000, connectors: [{ name: 'sink', tasks: 1000, count: 200 }] },
    compare: protocols.map((p, i) => ({ label: `${p} ${i}`, config: { 'connect.protocol': p } })),
    events: [{ at_ms: 60000, type: 'rolling_restart', downtime_ms: 10000, interval_ms: 20000 }],
  });
  const started = Date.now();
  await page.goto(server.url + '#' + fragment);
  await page.waitForSelector('#run-status[data-state="asking"]', { timeout: 20000 });
  const asked = Date.now() - started;
  const question = await page.locator('#run-words').textContent();
  assert.match(question, /^This scenario will take about (\d+ min( \d+ s)?|\d+ s) and \d+ MB to simulate\./);
  // Nothing is simulated meanwhile: the question came fast, the tab answers.
  assert.ok(asked < 15000, `asked after ${asked} ms`);
  assert.ok((await helpKeyLatency(page)) < 1500);
  await screenshot(page, 'cost-question-1366');
  // Keyboard: the answer is a button.
  await page.focus('#run-confirm');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#run-status[data-state="running"]', { timeout: 60000 });
  assert.match(await page.locator('#run-words').textContent(), /^Simulating… variant 1 of 4: /);
  const latency = await helpKeyLatency(page);
  assert.ok(latency < 1500, `keypress while the worker is busy: ${latency} ms`);
  await page.click('#run-cancel');
  await page.waitForSelector('#run-status[data-state="cancelled"]', { timeout: 2000 });
  // The page is usable at once: the gallery opens and a preset simulates.
  await page.click('#presets-button');
  await page.waitForSelector('main[data-view="gallery"]', { timeout: 2000 });
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page, 30000);
  assert.deepEqual(page.errors, []);
});
