// The shared playhead: stepping between rebalance rounds (buttons and keys),
// round details, play/pause, scrubbing, and the keyboard help.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, openEditor, screenshot, timelineReady } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const playhead = (page) => page.locator('#clock').getAttribute('data-t').then(Number);

test('next round moves the playhead to that round and shows its details', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  assert.equal(await playhead(page), 0);
  // Over the whole run every round is drawn (the default window, issue 11,
  // starts just before the scenario's first event).
  await page.click('#zoom-whole');
  // Round start times, over every column.
  const starts = await page.locator('g.round').evaluateAll((rs) => rs.map((r) => +r.dataset.at).sort((a, b) => a - b));
  assert.ok(starts.length >= 3, starts.join(','));
  await page.click('#next-round');
  await page.waitForSelector('.round-details');
  assert.equal(await playhead(page), starts[0]);
  // Every column's playhead line sits at the same time.
  const ts = await page.locator('g.playhead').evaluateAll((ps) => ps.map((p) => +p.dataset.t));
  assert.deepEqual(ts, ts.map(() => starts[0]));
  const details = page.locator('.round-details');
  assert.match(await details.locator('.explanation').textContent(), /\w{4,}/);
  assert.ok(await details.locator('table.members tbody tr').count() >= 1);
  const head = await details.locator('thead').textContent();
  for (const word of ['owned at JoinGroup', 'SyncGroup assigned', 'SyncGroup revoked']) assert.ok(head.includes(word), head);
  assert.match(await details.locator('.delay').textContent(), /ms|s/);
  // Keys: → steps on, ← steps back.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => document.querySelector('#clock').dataset.t === String(t), starts[1]);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((t) => document.querySelector('#clock').dataset.t === String(t), starts[0]);
  await screenshot(page, 'round-details-1280x800');
  // Esc closes the details.
  await page.keyboard.press('Escape');
  await page.waitForSelector('.round-details', { state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('hovering a round marker shows that round', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/add-connector');
  await timelineReady(page);
  await page.click('#zoom-whole');
  // The first round's own edge: its cooperative follow-up round comes 40 ms
  // later, and that marker's hit area covers the rest of this one's.
  const round = page.locator('article.column[data-variant="1"] g.round').first();
  await round.locator('rect.round-hit').hover({ position: { x: 1, y: 20 } });
  await page.waitForSelector('.round-details[data-variant="1"][data-round="0"]');
  assert.deepEqual(page.errors, []);
});

test('space plays and pauses; the playhead advances; scrubbing moves it', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-bounce');
  await timelineReady(page);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => +document.querySelector('#clock').dataset.t > 0);
  await page.keyboard.press(' ');
  const paused = await playhead(page);
  assert.ok(paused > 0);
  // Paused means paused: two animation frames later it has not moved.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await playhead(page), paused);
  // No layout jumps while playing: the columns keep their place.
  const before = await page.locator('svg.timeline').first().boundingBox();
  await page.click('#play');
  await page.waitForFunction((t) => +document.querySelector('#clock').dataset.t > t, paused);
  const during = await page.locator('svg.timeline').first().boundingBox();
  await page.click('#play');
  assert.deepEqual(during, before);
  // Drag on a timeline's time axis (the strip above the lanes; issue 11
  // made a drag on the lanes pan): the playhead follows the pointer. Over
  // the whole run, so the pointer's share of the axis is its share of the run.
  await page.click('#zoom-whole');
  await page.locator('svg.timeline').first().scrollIntoViewIfNeeded();
  const box = await page.locator('svg.timeline').first().boundingBox();
  const end = +(await page.locator('article.column').first().getAttribute('data-end'));
  const y = box.y + 8;
  await page.mouse.move(box.x + box.width * 0.5, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.75, y, { steps: 5 });
  await page.mouse.up();
  const t = await playhead(page);
  assert.ok(t > end * 0.5 && t < end, `scrubbed to ${t} of ${end}`);
  // Home and End.
  await page.keyboard.press('End');
  assert.equal(await playhead(page), end);
  await page.keyboard.press('Home');
  assert.equal(await playhead(page), 0);
  assert.deepEqual(page.errors, []);
});

test('the lanes get a layer of their own while the pointer rests on Play, Space is down or playback runs, not paused elsewhere', async () => {
  // Their layer is rastered on the way to Play, not in playback's first
  // frames (web/style.css); paused, it would cost every edit (docs/performance.md).
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-bounce');
  await timelineReady(page);
  const willChange = () => page.locator('svg.timeline .lanes').first().evaluate((g) => getComputedStyle(g).willChange);
  const lanes = await page.locator('svg.timeline .lanes').first().boundingBox();
  await page.mouse.move(lanes.x + 5, lanes.y + 5);
  assert.equal(await willChange(), 'auto');
  await page.hover('#play');
  assert.equal(await willChange(), 'transform');
  await page.mouse.move(lanes.x + 5, lanes.y + 5);
  assert.equal(await willChange(), 'auto');
  // Space plays on its release; while it is down, the layer is there.
  await page.keyboard.down(' ');
  assert.equal(await willChange(), 'transform');
  assert.equal(await page.locator('#play').getAttribute('aria-pressed'), 'false');
  await page.keyboard.up(' ');
  await page.waitForFunction(() => +document.querySelector('#clock').dataset.t > 0);
  assert.equal(await willChange(), 'transform');
  await page.keyboard.press(' ');
  assert.equal(await page.locator('#play').getAttribute('aria-pressed'), 'false');
  assert.equal(await willChange(), 'auto');
  assert.deepEqual(page.errors, []);
});

test('? opens the keyboard help, which lists the shortcuts', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  await page.keyboard.press('?');
  const help = page.locator('.dialog.help');
  await help.waitFor();
  const text = await help.textContent();
  for (const key of ['Space', '→', '←', 'Home', 'Esc']) assert.ok(text.includes(key), key);
  await screenshot(page, 'help-1280x800');
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
  // Typing in a field is typing, not a shortcut.
  await openEditor(page);
  await page.focus('#workers');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('?');
  assert.equal(await page.locator('.dialog.help').count(), 0);
  assert.equal(await playhead(page), 0);
  assert.deepEqual(page.errors, []);
});
