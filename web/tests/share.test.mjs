// Sharing: the permalink and its length, scenario files (download, open,
// drop) validated like links, and the iframe snippet.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A valid scenario whose link is far longer than 8,000 characters. */
function bigScenario() {
  // Names from a fixed LCG: random enough that deflate cannot shrink them away.
  let x = 12345;
  const rand = () => { x = (x * 1103515245 + 12345) % 2147483648; return x.toString(36); };
  const connectors = Array.from({ length: 1000 }, () => ({ name: `c-${rand()}${rand()}`.slice(0, 14), tasks: 1 }));
  return { version: 1, title: 'Many connectors', seed: 3, connect: { workers: 4, connectors }, events: [{ at_ms: 20000, type: 'worker_join' }] };
}

test('Copy link copies the permalink; its length is shown', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
  const page = await context.newPage();
  await page.goto(server.url + '#p=connect/worker-bounce');
  await timelineReady(page);
  const length = +(await page.locator('#link-length').getAttribute('data-length'));
  assert.equal(length, page.url().length);
  await page.click('#copy-link');
  await page.waitForSelector('.share-status:has-text("Link copied")');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  await context.close();
});

test('above 8,000 characters the page offers the scenario as a file; the file opens again', async () => {
  const page = await newPage(browser);
  const fragment = await (async () => {
    const p = await newPage(browser);
    await p.goto(server.url + '#p=connect/worker-joins');
    await timelineReady(p);
    const f = await p.evaluate((s) => window.wasmBindings.encodeLink(s), bigScenario());
    await p.close();
    return f;
  })();
  assert.ok(fragment.length > 8000, `link is ${fragment.length}`);
  await page.goto(server.url + '#' + fragment);
  await timelineReady(page);
  assert.equal(await page.locator('#copy-link').isDisabled(), true);
  assert.match(await page.locator('#link-length').textContent(), /too long/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  assert.equal(download.suggestedFilename(), 'many-connectors.json');
  const text = await readFile(await download.path(), 'utf8');
  assert.equal(JSON.parse(text).connect.connectors.length, 1000);

  // Open it in a fresh page: same scenario, now from a file.
  const fresh = await newPage(browser);
  await fresh.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(fresh);
  await fresh.setInputFiles('#open-file', { name: 'many-connectors.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await fresh.waitForFunction(() => document.querySelector('#scenario-title')?.textContent === 'Many connectors');
  await simulationShown(fresh);
  assert.ok(fresh.url().length > 8000);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
});

test('a bad scenario file shows why and keeps the current scenario', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  for (const [name, body, pattern] of [
    ['notes.json', 'this is not json', /notes\.json.*not a scenario/],
    ['bad.json', JSON.stringify({ version: 1, connect: { workers: 3 }, events: [{ at_ms: 5, type: 'worker_crash', worker: 'worker-9' }] }), /worker-9/],
    ['future.json', JSON.stringify({ version: 7, connect: { workers: 3 } }), /version/],
  ]) {
    await page.setInputFiles('#open-file', { name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await page.waitForFunction((n) => document.querySelector('#notice')?.textContent.includes(n), name);
    assert.match(await page.locator('#notice').textContent(), pattern);
    assert.equal(await page.locator('#scenario-title').textContent(), 'A worker joins');
  }
  // Too large to read at all.
  await page.setInputFiles('#open-file', { name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(2 * 1024 * 1024, 32) });
  await page.waitForFunction(() => document.querySelector('#notice')?.textContent.includes('huge.json'));
  assert.match(await page.locator('#notice').textContent(), /not opened/);
  assert.deepEqual(page.errors, []);
});

test('a scenario file dropped on the page opens', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  const json = JSON.stringify({ version: 1, title: 'Dropped', connect: { workers: 2, connectors: [{ name: 'x', tasks: 2 }] }, events: [{ at_ms: 10000, type: 'worker_join' }] });
  const data = await page.evaluateHandle((json) => {
    const dt = new DataTransfer();
    dt.items.add(new File([json], 'dropped.json', { type: 'application/json' }));
    return dt;
  }, json);
  await page.dispatchEvent('main', 'dragover', { dataTransfer: data });
  await page.dispatchEvent('main', 'drop', { dataTransfer: data });
  await page.waitForFunction(() => document.querySelector('#scenario-title')?.textContent === 'Dropped');
  await simulationShown(page);
  assert.match(await page.evaluate(() => location.hash), /^#s=1\./);
  assert.deepEqual(page.errors, []);
});

test('Embed gives an iframe snippet with loading, title, width and height', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  await page.click('#embed-button');
  const snippet = await page.locator('#embed-snippet').inputValue();
  assert.match(snippet, /^<iframe src="[^"]+\?embed=1#p=connect\/worker-joins" title="Rebalance Playground: A worker joins" width="\d+" height="\d+" loading="lazy"/);
  await page.click('.dialog.embed input[type=checkbox]');
  assert.match(await page.locator('#embed-snippet').inputValue(), /\?embed=1&amp;autoplay=1#/);
  assert.deepEqual(page.errors, []);
});

test('editor: connectors, configs and events of every type edit the scenario', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  await openEditor(page);
  const request = async () => +(await page.locator('main').getAttribute('data-request'));
  // A protocol config under its Kafka name, on the cooperative column.
  const before = await request();
  await page.fill('#cfg-1-scheduled-rebalance-max-delay-ms', '0');
  await page.press('#cfg-1-scheduled-rebalance-max-delay-ms', 'Enter');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, before);
  await simulationShown(page);
  const decoded = async () => page.evaluate(() => window.wasmBindings.decodeLink(location.hash));
  assert.equal((await decoded()).compare[1].config['scheduled.rebalance.max.delay.ms'], 0);
  // Kafka's default is shown beside it, with thousands separators.
  assert.match(await page.locator('table.config-matrix').textContent(), /scheduled\.rebalance\.max\.delay\.ms\s*300,000/);
  // Every event type can be chosen, and each re-simulates.
  const kinds = await page.locator('.event-row select').first().locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.equal(kinds.length, 9);
  // (The preset's event is the first kind; visit the others, then come back.)
  for (const kind of [...kinds.slice(1), kinds[0]]) {
    const r = await request();
    await page.locator('.event-row select').first().selectOption(kind);
    await page.waitForFunction(([r, k]) => +document.querySelector('main').dataset.request > r
      && document.querySelector('.event-row')?.dataset.kind === k, [r, kind]);
    await simulationShown(page);
    assert.equal((await decoded()).events[0].type, kind);
  }
  // Add and remove an event; add a connector.
  await page.click('#add-event');
  await page.waitForFunction(() => document.querySelectorAll('.event-row').length === 2);
  await page.locator('.event-row').nth(1).locator('button.remove').click();
  await page.waitForFunction(() => document.querySelectorAll('.event-row').length === 1);
  await page.click('fieldset.cluster button.add');
  await page.waitForFunction(() => document.querySelectorAll('table.connectors tbody tr').length === 3);
  await simulationShown(page);
  // An invalid edit is explained and not simulated; the last result stays.
  const r = await request();
  await page.fill('#workers', '5000');
  await page.press('#workers', 'Enter');
  await page.waitForSelector('#edit-error');
  assert.match(await page.locator('#edit-error').textContent(), /2000|workers/);
  assert.equal(await request(), r);
  assert.deepEqual(page.errors, []);
});

test('editor: a Streams scenario edits its application, configs and events', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=streams/stateful-scale-out');
  await timelineReady(page);
  await openEditor(page);
  const request = async () => +(await page.locator('main').getAttribute('data-request'));
  const decoded = async () => page.evaluate(() => window.wasmBindings.decodeLink(location.hash));
  // No Connect fields on a Streams scenario.
  assert.equal(await page.locator('#workers').count(), 0);
  let r = await request();
  await page.fill('#instances', '4');
  await page.press('#instances', 'Enter');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
  assert.equal((await decoded()).streams.instances, 4);
  // A per-column override under Kafka's property names (the config grid,
  // since issue #11; it was a JSON field).
  r = await request();
  await page.fill('#cfg-2-num-standby-replicas', '1');
  await page.press('#cfg-2-num-standby-replicas', 'Enter');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
  assert.equal((await decoded()).compare[2].config['num.standby.replicas'], 1);
  // Every Streams event type.
  const kinds = await page.locator('.event-row select').first().locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.equal(kinds.length, 7);
  for (const kind of [...kinds.slice(1), kinds[0]]) {
    r = await request();
    await page.locator('.event-row select').first().selectOption(kind);
    await page.waitForFunction(([r, k]) => +document.querySelector('main').dataset.request > r
      && document.querySelector('.event-row')?.dataset.kind === k, [r, kind]);
    await simulationShown(page);
    assert.equal((await decoded()).events[0].type, kind);
  }
  assert.deepEqual(page.errors, []);
});
