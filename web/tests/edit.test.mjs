// Editing (issue #11): each edit is a history entry (Back undoes it, Forward
// redoes it), blank scenarios of each family, title and description fields
// with a stale mark, the Streams config grid (Kafka names, defaults, a
// warmups switch, add/remove columns, restore rate, each column's Kafka
// release), a slow handler's stream thread, errors that name
// "column N", the page title, and SVG/PNG export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const request = async (page) => +(await page.locator('main').getAttribute('data-request'));
const decoded = (page) => page.evaluate(() => window.wasmBindings.decodeLink(location.hash));
/** Commits `value` into `field` (a selector or a locator) and waits for the re-simulation. */
async function commit(page, field, value) {
  const input = typeof field === 'string' ? page.locator(field) : field;
  const r = await request(page);
  await input.fill(value);
  await input.press('Enter');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
}

/** A page on preset `id` with its editor open, its first simulation shown. */
async function presetInEditor(id, viewport) {
  const page = await newPage(browser, viewport);
  await page.goto(server.url + '#p=' + id);
  await timelineReady(page);
  await simulationShown(page);
  await openEditor(page);
  return page;
}

test('each edit is a history entry: Back undoes it, Forward redoes it', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  await simulationShown(page);
  assert.equal(await page.title(), 'A worker joins — Rebalance Playground');
  await openEditor(page);
  await commit(page, '#workers', '5');
  const fiveWorkers = await page.evaluate(() => location.hash);
  assert.match(fiveWorkers, /^#s=1\./);
  await commit(page, '#workers', '6');
  assert.equal((await decoded(page)).connect.workers, 6);
  await simulationShown(page);
  await page.waitForSelector('g.lane[data-lane="worker-7"]');
  // Back: five workers again, simulated.
  await page.goBack();
  await page.waitForFunction((h) => location.hash === h, fiveWorkers);
  await simulationShown(page);
  assert.equal(await page.locator('#workers').inputValue(), '5');
  // The view is undone too, not just the form: five workers and the one
  // that joins, no worker-7 any more.
  await page.waitForSelector('g.lane[data-lane="worker-6"]');
  assert.equal(await page.locator('g.lane[data-lane="worker-7"]').count(), 0);
  await page.goBack();
  await page.waitForFunction(() => location.hash === '#p=connect/worker-joins');
  await simulationShown(page);
  assert.equal(await page.locator('#workers').inputValue(), '3');
  assert.equal(await page.locator('.column').count(), 2);
  // Forward twice: the edits again.
  await page.goForward();
  await page.waitForFunction((h) => location.hash === h, fiveWorkers);
  await simulationShown(page);
  assert.equal(await page.locator('#workers').inputValue(), '5');
  await page.goForward();
  await page.waitForFunction(() => document.querySelector('#workers')?.value === '6');
  // A title edit renames the tab.
  await commit(page, '#title', 'Six workers');
  assert.equal(await page.title(), 'Six workers — Rebalance Playground');
  assert.deepEqual(page.errors, []);
});

test('an edit\'s link is written after the frame that shows its result, as one history entry', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await simulationShown(page);
  await openEditor(page);
  // When the result reaches the DOM, the address bar still holds the old
  // link; the page then marks a write as pending (<html data-link-pending>,
  // seen here while the old link is still there) and writes the link after
  // the frame. The mark is watched rather than sampled at one moment: Yew
  // may run the App's effects after the DOM change, even after a frame.
  const seen = await page.evaluate(() => new Promise((done) => {
    const main = document.querySelector('main');
    const root = document.documentElement;
    const before = { hash: location.hash, length: history.length, request: main.dataset.request };
    let atShown = null;
    let markedWhileOld = false;
    let cleared = false;
    const finish = () => {
      if (atShown && cleared) done({ before, atShown: { ...atShown, pending: markedWhileOld }, after: { hash: location.hash, length: history.length } });
    };
    new MutationObserver(() => {
      if (root.hasAttribute('data-link-pending')) markedWhileOld ||= location.hash === before.hash;
      else if (markedWhileOld) { cleared = true; finish(); }
    }).observe(root, { attributes: true, attributeFilter: ['data-link-pending'] });
    const watch = new MutationObserver(() => {
      if (main.dataset.request !== before.request && main.dataset.shown === main.dataset.request) {
        watch.disconnect();
        atShown = { hash: location.hash };
        finish();
      }
    });
    watch.observe(main, { attributes: true, attributeFilter: ['data-request', 'data-shown'] });
    const input = document.querySelector('#workers');
    input.value = '4';
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }));
  assert.equal(seen.atShown.hash, seen.before.hash, 'the link is not yet written when the result renders');
  assert.ok(seen.atShown.pending);
  assert.match(seen.after.hash, /^#s=1\./);
  assert.equal(seen.after.length, seen.before.length + 1, 'the edit is one new history entry');
  assert.equal((await decoded(page)).connect.workers, 4);
  // The permalink the page shows is the link written.
  assert.equal(+(await page.locator('#link-length').getAttribute('data-length')), (await page.evaluate(() => location.href)).length);
  await page.goBack();
  await page.waitForFunction(() => location.hash === '#p=connect/worker-joins');
  await simulationShown(page);
  assert.equal(await page.locator('#workers').inputValue(), '3');
  assert.deepEqual(page.errors, []);
});

test('an edit\'s story follows its timelines in the task after their frame', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await simulationShown(page);
  await page.waitForSelector('.story-list li');
  await openEditor(page);
  // Three workers and worker-4 joins; with four, worker-5 joins. The frame
  // that draws worker-5's lane still shows the old story (the side panel
  // waits for it, issue #13); the story then follows.
  const seen = await page.evaluate(() => new Promise((done) => {
    const main = document.querySelector('main');
    const story = () => document.querySelector('.story-list').textContent;
    const before = { request: main.dataset.request, story: story() };
    const watch = new MutationObserver(() => {
      if (main.dataset.request !== before.request && main.dataset.shown === main.dataset.request) {
        watch.disconnect();
        const atShown = { story: story(), lane: !!document.querySelector('g.lane[data-lane="worker-5"]') };
        requestAnimationFrame(() => setTimeout(() => setTimeout(() => done({ before, atShown, after: story() }), 50)));
      }
    });
    watch.observe(main, { attributes: true, attributeFilter: ['data-request', 'data-shown'] });
    const input = document.querySelector('#workers');
    input.value = '4';
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }));
  assert.match(seen.before.story, /worker-4/);
  assert.doesNotMatch(seen.before.story, /worker-5/);
  assert.ok(seen.atShown.lane, 'the new lanes are drawn');
  assert.equal(seen.atShown.story, seen.before.story, 'the story waits for the frame');
  assert.match(seen.after, /worker-5/);
  assert.notEqual(seen.after, seen.before.story);
  assert.deepEqual(page.errors, []);
});

test('blank scenarios of each family open from the gallery and simulate', async () => {
  const page = await newPage(browser);
  for (const [button, title, lanes] of [['#new-connect', 'New Connect scenario', 'worker-3'], ['#new-streams', 'New Streams scenario', 'instance-3']]) {
    await page.goto(server.url);
    await page.waitForSelector(button);
    await page.click(button);
    await timelineReady(page);
    await simulationShown(page);
    assert.equal(await page.locator('#scenario-title').textContent(), title);
    assert.ok(await page.locator(`svg.timeline [data-lane="${lanes}"]`).count() >= 1, lanes);
    const s = await decoded(page);
    assert.equal(s.events?.length ?? 0, 0, 'no events');
    assert.equal(await page.locator('.column').count(), 2);
    // Back returns to the gallery.
    await page.goBack();
    await page.waitForSelector('.gallery li.preset');
  }
  assert.deepEqual(page.errors, []);
});

test('config edits and workers edits in turn keep each other (the config grid skips the renders it does not need)', async () => {
  const page = await presetInEditor('connect/worker-joins');
  await commit(page, '#workers', '5');
  await commit(page, '#cfg-cluster-session-timeout-ms', '20000');
  await commit(page, '#workers', '6');
  await commit(page, '#cfg-1-scheduled-rebalance-max-delay-ms', '60000');
  const s = await decoded(page);
  assert.equal(s.connect.workers, 6);
  const text = JSON.stringify(s);
  assert.match(text, /"session\.timeout\.ms":"?20000"?/);
  assert.match(text, /"scheduled\.rebalance\.max\.delay\.ms":"?60000"?/);
  assert.equal(await page.inputValue('#cfg-cluster-session-timeout-ms'), '20000');
  assert.equal(await page.inputValue('#workers'), '6');
  assert.deepEqual(page.errors, []);
});

test('Streams config edits and instance edits in turn keep each other (the Streams grid skips the renders it does not need)', async () => {
  const page = await presetInEditor('streams/warmup-convergence');
  const instances = Number(await page.inputValue('#instances'));
  await commit(page, '#instances', String(instances + 1));
  await commit(page, '#cfg-app-num-standby-replicas', '2');
  await commit(page, '#instances', String(instances + 2));
  await commit(page, '#cfg-0-max-warmup-replicas', '3');
  const s = await decoded(page);
  assert.equal(s.streams.instances, instances + 2);
  assert.equal(String(s.streams.config?.['num.standby.replicas']), '2', JSON.stringify(s));
  assert.equal(String(s.compare[0].config?.['max.warmup.replicas']), '3', JSON.stringify(s));
  assert.equal(await page.inputValue('#cfg-app-num-standby-replicas'), '2');
  assert.equal(await page.inputValue('#cfg-0-max-warmup-replicas'), '3');
  assert.equal(await page.inputValue('#instances'), String(instances + 2));
  assert.deepEqual(page.errors, []);
});

test('edits of one connector, one timing and the worker count in a row all stay in the scenario', async () => {
  // The cluster section keeps its fields' callbacks while the list or the
  // timings they edit stay the same (components/editor/cluster.rs): each
  // edit must start from the scenario as the last one left it.
  const page = await presetInEditor('connect/rolling-restart');
  const field = (label) => page.locator('details.timings label.field', { hasText: label }).locator('input');
  const count = page.locator('table.connectors tbody tr').first().locator('td').nth(2).locator('input');
  await commit(page, '#tasks', '7');
  await commit(page, count, '2');
  await page.evaluate(() => { document.querySelector('details.timings').open = true; });
  await commit(page, field('task start'), '800');
  await commit(page, field('task stop'), '900');
  await commit(page, '#workers', '4');
  await commit(page, '#tasks', '5');
  const s = (await decoded(page)).connect;
  assert.equal(s.workers, 4);
  assert.deepEqual(s.connectors[0], { name: 'orders-cdc', tasks: 5, count: 2 });
  assert.equal(s.connectors[1].tasks, 6);
  assert.equal(s.timings.task_start_ms, 800);
  assert.equal(s.timings.task_stop_ms, 900);
  assert.equal(await count.inputValue(), '2');
  assert.equal(await field('task start').inputValue(), '800');
  await page.close();
});

test('an edit does not move what is below the editor (the stale note and the status keep their lines)', async () => {
  // Mixed-version upgrade's first sentence plus the note is wider than the
  // line at 1280 px; the status after an edit is longer than before it.
  const page = await presetInEditor('connect/mixed-version-upgrade', { width: 1280, height: 800 });
  const where = () => page.evaluate(() => ['#editor', 'fieldset.protocols', '.legend-row', '.columns']
    .map((s) => `${s} ${document.querySelector(s).getBoundingClientRect().y.toFixed(2)}`));
  const before = await where();
  const workers = Number(await page.inputValue('#workers'));
  await commit(page, '#workers', String(workers + 1));
  await page.waitForSelector('#description-stale');
  assert.deepEqual(await where(), before, 'the note shown and the status changed');
  await commit(page, '#workers', String(workers));
  await page.waitForFunction(() => !document.querySelector('#description-stale'));
  assert.deepEqual(await where(), before, 'the note hidden again');
  assert.deepEqual(page.errors, []);
});

test('title and description are edited in the editor and marked stale when the scenario changes', async () => {
  const page = await presetInEditor('connect/worker-joins');
  assert.equal(await page.locator('#description-stale').count(), 0);
  await commit(page, '#workers', '1000');
  // The preset's "Three workers run…" no longer fits.
  await page.waitForSelector('#description-stale');
  assert.match(await page.locator('.editor .stale-note').textContent(), /edited — description may not match/);
  // The mark travels with the link (the words are still the preset's).
  const other = await newPage(browser);
  await other.goto(server.url + await page.evaluate(() => location.hash));
  await timelineReady(other);
  await other.waitForSelector('#description-stale');
  // On a phone the note has a line of its own under the clamped
  // description (beside it, it was a column of four narrow lines).
  const phone = await newPage(browser, { width: 390, height: 844 });
  await phone.goto(server.url + await page.evaluate(() => location.hash));
  await timelineReady(phone);
  const note = await phone.locator('#description-stale').boundingBox();
  const first = await phone.locator('.description .first').boundingBox();
  assert.ok(note.height < 20, `the note is one line: ${JSON.stringify(note)}`);
  assert.ok(note.y >= first.y + first.height - 1, `the note is under the text: ${JSON.stringify({ note, first })}`);
  await phone.close();
  // Rewriting the description clears it; the link carries the words.
  const r = await request(page);
  await page.fill('#description', 'A thousand workers run two connectors.');
  await page.locator('#description').blur();
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await page.waitForFunction(() => !document.querySelector('#description-stale'));
  await simulationShown(page);
  assert.equal((await decoded(page)).description, 'A thousand workers run two connectors.');
  assert.match(await page.locator('.description').textContent(), /A thousand workers/);
  assert.deepEqual([...page.errors, ...other.errors, ...phone.errors], []);
});

test('the Streams editor has the config grid: Kafka names, defaults, warmups switch, columns, restore rate', async () => {
  const page = await presetInEditor('streams/stateful-scale-out');
  const grid = page.locator('.editor table.config-matrix');
  // Kafka property names with their defaults for the app's version (shown
  // with the page's thousands separators; the inputs take plain digits).
  assert.match(await grid.textContent(), /session\.timeout\.ms\s*45,000/);
  assert.match(await grid.textContent(), /num\.standby\.replicas\s*0/);
  // The third column's fingerprint changes when one of its keys does.
  const third = page.locator('.column[data-variant="2"]');
  const before = await third.getAttribute('data-fingerprint');
  await commit(page, '#cfg-2-num-standby-replicas', '1');
  assert.equal((await decoded(page)).compare[2].config['num.standby.replicas'], 1);
  await page.waitForFunction((f) => document.querySelector('.column[data-variant="2"]').dataset.fingerprint !== f, before);
  // Warmups off is a switch; the preset's first two columns have it on, via Long.MAX_VALUE.
  assert.equal(await page.locator('#cfg-0-warmups-off').isChecked(), true);
  assert.equal(await page.locator('#cfg-2-warmups-off').isChecked(), false);
  assert.equal(await page.locator('#cfg-0-acceptable-recovery-lag').getAttribute('placeholder'), 'Long.MAX_VALUE');
  let r = await request(page);
  await page.locator('#cfg-2-warmups-off').check();
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
  const lag = await page.evaluate(() => String(window.wasmBindings.decodeLink(location.hash).compare[2].config['acceptable.recovery.lag']));
  assert.equal(lag, '9223372036854775807');
  r = await request(page);
  await page.locator('#cfg-2-warmups-off').uncheck();
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  // The link is written after the frame that shows the result.
  await simulationShown(page);
  assert.equal((await decoded(page)).compare[2].config?.['acceptable.recovery.lag'], undefined);
  // Add a column, then remove it.
  r = await request(page);
  await page.click('.editor .add-column');
  await page.waitForFunction(() => document.querySelectorAll('.column').length === 4);
  await simulationShown(page);
  assert.equal((await decoded(page)).compare.length, 4);
  await page.click('.editor .variant-head >> nth=3 >> button.remove');
  await page.waitForFunction(() => document.querySelectorAll('.column').length === 3);
  // The restore rate.
  await commit(page, '#restore-rate', '40000');
  assert.equal((await decoded(page)).streams.timings.restore_records_per_sec, 40000);
  // Each column's inputs have their own labels.
  const labels = await grid.locator('tbody input, tbody select').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  assert.ok(labels.every(Boolean), 'every cell is labelled');
  assert.equal(new Set(labels).size, labels.length, 'labels are distinct');
  assert.ok(labels.includes('session.timeout.ms, column 2 (cooperative)'), labels.slice(0, 8).join(' | '));
  assert.deepEqual(page.errors, []);
});

test('the Streams editor sets a column\'s Kafka release and a slow handler\'s stream thread', async () => {
  const page = await presetInEditor('streams/slow-handler');
  // kafka_version is the grid's first row: the application inherits the
  // newest release, a column its application's; the choices are the
  // releases the engine models.
  const options = await page.locator('#cfg-1-kafka_version option').evaluateAll((os) => os.map((o) => o.value));
  assert.equal(options[0], '', 'inherit');
  assert.ok(options.includes('3.9') && options.includes('4.3') && options.includes('2.3'), options.join(' '));
  assert.equal(await page.locator('#cfg-0-kafka_version').inputValue(), '3.9');
  assert.equal(await page.locator('#cfg-1-kafka_version').inputValue(), '');
  let r = await request(page);
  await page.selectOption('#cfg-1-kafka_version', '3.8');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
  assert.equal((await decoded(page)).compare[1].kafka_version, '3.8');
  assert.equal(await page.locator('#cfg-1-kafka_version').inputValue(), '3.8');
  // The slow handler blocks StreamThread-1; make it StreamThread-2.
  const thread = page.locator('.event-row[data-kind="slow_processing"]').getByLabel('stream thread');
  assert.ok(['', '1'].includes(await thread.inputValue()), 'StreamThread-1, the default');
  r = await request(page);
  await thread.fill('2');
  await thread.press('Enter');
  await page.waitForFunction((r) => +document.querySelector('main').dataset.request > r, r);
  await simulationShown(page);
  const scenario = await decoded(page);
  assert.equal(scenario.events[0].thread, 2);
  assert.equal(scenario.compare[1].kafka_version, '3.8', 'the earlier edit stays');
  // The link opens with both.
  const other = await newPage(browser);
  await other.goto(server.url + await page.evaluate(() => location.hash));
  await timelineReady(other);
  await openEditor(other);
  assert.equal(await other.locator('#cfg-1-kafka_version').inputValue(), '3.8');
  assert.equal(await other.locator('.event-row[data-kind="slow_processing"]').getByLabel('stream thread').inputValue(), '2');
  assert.deepEqual([...page.errors, ...other.errors], []);
});

test('errors name the column as the page does', async () => {
  const page = await presetInEditor('streams/stateful-scale-out');
  let r = await request(page);
  await page.fill('#cfg-0-heartbeat-interval-ms', '999999');
  await page.press('#cfg-0-heartbeat-interval-ms', 'Enter');
  await page.waitForSelector('#edit-error');
  const text = await page.locator('#edit-error').textContent();
  // The engine words the range (crates/engine/src/scenario/ranges.rs); the
  // page names the column and the key as it shows them, and the value typed.
  assert.match(text, /column 1 \(eager\): heartbeat\.interval\.ms /);
  assert.match(text, /\b999,999 ms\b/, 'the value, with the page\'s thousands separators');
  assert.doesNotMatch(text, /compare\[|streams\.compare|config\./);
  assert.equal(await request(page), r, 'not simulated');
  const connect = await newPage(browser);
  await connect.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(connect);
  await openEditor(connect);
  await connect.fill('#cfg-1-session-timeout-ms', '0');
  await connect.press('#cfg-1-session-timeout-ms', 'Enter');
  await connect.waitForSelector('#edit-error');
  const connectText = await connect.locator('#edit-error').textContent();
  assert.match(connectText, /column 2 \(cooperative\): session\.timeout\.ms /);
  assert.doesNotMatch(connectText, /compare\[|config\./);
  // Sentences end with one full stop, whether the engine's message has one or not.
  assert.match(text, /[^.]\. The comparison still shows the last valid scenario\.$/);
  assert.match(connectText, /[^.]\. The comparison still shows the last valid scenario\.$/);
  // A field's own message (no full stop of its own).
  await connect.fill('#cfg-1-session-timeout-ms', '-5');
  await connect.press('#cfg-1-session-timeout-ms', 'Enter');
  await connect.waitForFunction(() => document.querySelector('#edit-error')?.textContent.includes('whole number'));
  assert.match(await connect.locator('#edit-error').textContent(), /at least 0\. The comparison still shows the last valid scenario\.$/);
  assert.deepEqual([...page.errors, ...connect.errors], []);
});

test('export: the view as a valid SVG and as a PNG', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  await simulationShown(page);
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  assert.equal(svgDownload.suggestedFilename(), 'a-worker-dies.svg');
  const svg = await readFile(await svgDownload.path(), 'utf8');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: doc.getElementsByTagName('parsererror').length,
      root: doc.documentElement.localName,
      ns: doc.documentElement.namespaceURI,
      rects: doc.getElementsByTagName('rect').length,
      title: doc.querySelector('title')?.textContent,
      width: +doc.documentElement.getAttribute('width'),
    };
  }, svg);
  assert.equal(parsed.error, 0, 'the SVG parses');
  assert.equal(parsed.root, 'svg');
  assert.equal(parsed.ns, 'http://www.w3.org/2000/svg');
  assert.equal(parsed.title, 'A worker dies');
  assert.ok(parsed.rects > 20, `${parsed.rects} rects`);
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.equal(pngDownload.suggestedFilename(), 'a-worker-dies.png');
  const png = await readFile(await pngDownload.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  assert.equal(width, parsed.width * 2, 'drawn at 2× the SVG');
  assert.ok(height > 200, `${width}×${height}`);
  assert.ok(png.length > 10_000, `${png.length} bytes: not blank`);
  assert.deepEqual(page.errors, []);
});
