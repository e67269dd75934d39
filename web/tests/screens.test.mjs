// The view on the screens people use (issue 11): a phone shows the lanes in
// its first screen and keeps them in sight under the round details; a
// two-finger pinch zooms the timelines; the open editor beside the timelines
// on a laptop; three columns fit beside the story at laptop widths; a round's
// details beside the story; story times never wrap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, openEditor, screenshot, timelineReady } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 390, height: 844 };
const windows = (page) => page.locator('svg.timeline').evaluateAll((ss) => ss.map((s) => [+s.dataset.from, +s.dataset.to]));

/** A page with a touch screen (pointer events of type "touch"). */
async function touchPage(viewport) {
  const page = await browser.newPage({ viewport, hasTouch: true });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  return page;
}

/** Touches through Chromium's input pipeline (so `touch-action` applies). */
async function touch(page) {
  const cdp = await page.context().newCDPSession(page);
  const send = (type, points) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 2, radiusY: 2, force: 1 })),
  });
  return {
    /** Two fingers from `from` to `to` ([[x, y], [x, y]] each) in `steps` moves. */
    async pinch(from, to, steps = 8) {
      await send('touchStart', [from[0]]);
      await send('touchStart', from);
      for (let i = 1; i <= steps; i++) {
        const f = i / steps;
        await send('touchMove', from.map((p, k) => [p[0] + (to[k][0] - p[0]) * f, p[1] + (to[k][1] - p[1]) * f]));
      }
      await send('touchEnd', []);
    },
    /** One finger from `a` to `b`. */
    async drag(a, b, steps = 8) {
      await send('touchStart', [a]);
      for (let i = 1; i <= steps; i++) {
        const f = i / steps;
        await send('touchMove', [[a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]]);
      }
      await send('touchEnd', []);
    },
  };
}

test('a two-finger pinch zooms every timeline around the pinch centre; the link follows', async () => {
  const page = await touchPage(PHONE);
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const svg = page.locator('svg.timeline').first();
  const lane = svg.locator('g.lane').first();
  await lane.scrollIntoViewIfNeeded();
  const [[f0, t0]] = await windows(page);
  const box = await svg.boundingBox();
  const [left, right] = await svg.evaluate((s) => [+s.dataset.left, +s.dataset.right]);
  const scale = box.width / +(await svg.getAttribute('width'));
  const lb = await lane.boundingBox();
  const y = lb.y + Math.min(lb.height / 2, 20);
  // Fingers around the middle of the plot, spread to three times their distance.
  const cx = box.x + ((left + right) / 2) * scale;
  const timeAt = (x, [from, to]) => from + ((x - box.x) / scale - left) / (right - left) * (to - from);
  const under = timeAt(cx, [f0, t0]);
  const t = await touch(page);
  await t.pinch([[cx - 25, y], [cx + 25, y]], [[cx - 75, y], [cx + 75, y]]);
  await page.waitForFunction((span) => {
    const s = document.querySelector('svg.timeline');
    return +s.dataset.to - +s.dataset.from < span * 0.6;
  }, t0 - f0);
  const zoomed = await windows(page);
  assert.ok(zoomed.every((w) => w[0] === zoomed[0][0] && w[1] === zoomed[0][1]), JSON.stringify(zoomed));
  const span = zoomed[0][1] - zoomed[0][0];
  assert.ok(Math.abs(span - (t0 - f0) / 3) < (t0 - f0) * 0.08, `span ${span} after a 3× spread of ${t0 - f0}`);
  // The time under the pinch centre stayed there.
  const drift = Math.abs(timeAt(cx, zoomed[0]) - under);
  assert.ok(drift < (t0 - f0) * 0.03, `the centre moved by ${drift} ms`);
  // The link's view state follows.
  await page.waitForFunction(() => new URL(location.href).searchParams.has('view'));
  assert.equal(new URL(page.url()).searchParams.get('view'), `${zoomed[0][0]}-${zoomed[0][1]}`);
  // A pinch is no tap: nothing is followed.
  assert.equal(await page.locator('g.follow').count(), 0);
  // Pinching in zooms back out.
  await t.pinch([[cx - 80, y], [cx + 80, y]], [[cx - 20, y], [cx + 20, y]]);
  await page.waitForFunction((s) => {
    const el = document.querySelector('svg.timeline');
    return +el.dataset.to - +el.dataset.from > s * 2;
  }, span);
  // One finger dragged sideways pans the zoomed window, keeping its width.
  const [[p0, p1]] = await windows(page);
  await t.drag([cx + 60, y], [cx - 60, y]);
  await page.waitForFunction((p) => +document.querySelector('svg.timeline').dataset.from > p, p0);
  const [[q0, q1]] = await windows(page);
  assert.equal(q1 - q0, p1 - p0);
  // One finger dragged up scrolls the page, as anywhere else.
  const before = await page.evaluate(() => scrollY);
  await t.drag([cx, y + 40], [cx, y - 160], 10);
  await page.waitForFunction((b) => scrollY > b + 40, before);
  assert.deepEqual(await windows(page), (await windows(page)).map(() => [q0, q1]), 'a vertical swipe does not pan');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('on a phone the first lane is in the first screen (Connect and Streams presets)', async () => {
  for (const id of ['connect/worker-dies', 'streams/stateful-scale-out']) {
    const page = await newPage(browser, PHONE);
    await page.goto(server.url + '#p=' + id);
    await timelineReady(page);
    assert.equal(await page.evaluate(() => scrollY), 0);
    const lane = page.locator('svg.timeline g.lane').first();
    const box = await lane.boundingBox();
    assert.ok(box.y >= 0 && box.y + 24 < PHONE.height, `${id}: the first lane's top is at ${Math.round(box.y)} px`);
    // Nothing sideways: the page fits the phone.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${id}: the page scrolls sideways`);
    await screenshot(page, `screens-first-${id.replace('/', '-')}-390x844`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  // The desktop keeps its full chart and legend.
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const chart = await page.locator('svg.chart').boundingBox();
  assert.ok(chart.height >= 110, `desktop chart ${chart.height} px tall`);
  assert.ok(await page.locator('.legend').isVisible());
  const lane = await page.locator('svg.timeline g.lane').first().boundingBox();
  assert.ok(lane.y + 24 < 800, `desktop: the first lane's top is at ${lane.y}`);
  await page.close();
});

test('on a phone a strip that scrolls sideways fades at the edge where more of it is', async () => {
  const page = await newPage(browser, PHONE);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Whether the mask is clear at the strip's left edge, and at its right
  // (computed, "transparent" reads rgba(0, 0, 0, 0)).
  const edges = () => page.locator('.toolbar').evaluate((e) => {
    const m = getComputedStyle(e).maskImage;
    const clear = 'rgba(0, 0, 0, 0)';
    return m === 'none' ? 'none' : `${m.startsWith(`linear-gradient(to right, ${clear}`) ? 'faded' : 'solid'}-${m.endsWith(`${clear})`) ? 'faded' : 'solid'}`;
  });
  // A strip that fits does not fade.
  const fits = await page.addStyleTag({ content: '.toolbar > :not(:first-child) { display: none }' });
  await frame();
  assert.equal(await edges(), 'none');
  await fits.evaluate((t) => t.remove());
  await frame();
  assert.equal(await edges(), 'solid-faded', 'at the start: more to the right');
  await page.locator('.toolbar').evaluate((e) => { e.scrollLeft = 40; });
  await frame();
  assert.equal(await edges(), 'faded-faded', 'in the middle: more on both sides');
  await page.locator('.toolbar').evaluate((e) => { e.scrollLeft = e.scrollWidth; });
  await frame();
  assert.equal(await edges(), 'faded-solid', 'at the end: more to the left');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('stepping on a phone: the details sheet leaves the stepped round\'s lanes in sight, and folds away', async () => {
  for (const id of ['connect/worker-joins', 'streams/stateful-scale-out']) {
    const page = await newPage(browser, PHONE);
    await page.goto(server.url + '#p=' + id);
    await timelineReady(page);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.activeElement?.id === 'round-details');
      await page.waitForTimeout(100);
      const details = await page.locator('#round-details').boundingBox();
      assert.ok(details.y < PHONE.height - 60 && details.y + details.height <= PHONE.height + 1, `${id}: details at ${details.y}`);
      assert.ok(details.height <= PHONE.height * 0.45, `${id}: the sheet is ${details.height} px tall`);
      // Some lane of the stepped column is on screen and not under the sheet or the bar.
      const variant = await page.locator('#round-details').getAttribute('data-variant');
      const seen = await page.evaluate((v) => {
        const lanes = [...document.querySelectorAll(`article.column[data-variant="${v}"] svg.timeline g.lane rect.lane-bg`)];
        return lanes.some((r) => {
          const b = r.getBoundingClientRect();
          const y = Math.min(b.top + 8, b.bottom - 1);
          const x = b.left + b.width * 0.7;
          if (y < 0 || y > innerHeight) return false;
          const hit = document.elementFromPoint(x, y);
          return !!hit && !!hit.closest(`article.column[data-variant="${v}"] svg.timeline`);
        });
      }, variant);
      assert.ok(seen, `${id}, step ${i + 1}: no lane of column ${variant} is visible beside the sheet`);
    }
    // The sticky playback bar above the lanes stays two rows (buttons and clock, the scrubber).
    const bar = await page.locator('.transport').boundingBox();
    assert.ok(bar.height < 80, `${id}: the playback bar is ${bar.height} px tall`);
    await screenshot(page, `screens-step-${id.replace('/', '-')}-390x844`);
    // The sheet folds to its title bar and opens again.
    const fold = page.locator('#round-details-fold');
    await fold.click();
    const folded = await page.locator('#round-details').boundingBox();
    assert.ok(folded.height < 70, `folded sheet ${folded.height} px`);
    assert.equal(await fold.getAttribute('aria-expanded'), 'false');
    await fold.click();
    assert.ok((await page.locator('#round-details').boundingBox()).height > 100);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('on a laptop the open editor sits beside the timelines, so an edit redraws them in sight', async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await page.goto(server.url + '#p=connect/rolling-restart');
  await timelineReady(page);
  await openEditor(page);
  const firstLane = () => page.locator('article.column[data-variant="0"] svg.timeline g.lane').first().boundingBox();
  const editor = await page.locator('#editor').boundingBox();
  let lane = await firstLane();
  // Stacked, the open editor put the first lane 1,430 px down.
  assert.ok(lane.y < 800 && lane.x > editor.x + editor.width, `editor ${JSON.stringify(editor)}, first lane ${JSON.stringify(lane)}`);
  // Every cell of the protocols grid is in the pane, none scrolled out sideways.
  const cells = await page.locator('#editor .config-matrix :is(input, select)').evaluateAll((es) => es.map((e) => e.getBoundingClientRect().right));
  assert.ok(cells.length >= 3 * 9, `${cells.length} cells`);
  for (const right of cells) assert.ok(right <= editor.x + editor.width, `a cell ends at ${right}, the pane at ${editor.x + editor.width}`);
  const workers = page.locator('#workers');
  await workers.fill('7');
  await workers.press('Enter');
  await page.waitForSelector('article.column[data-variant="0"] g.lane[data-lane="worker-7"]');
  lane = await firstLane();
  assert.ok(lane.y < 800, `after the edit the first lane is at ${lane.y}`);
  // A round's details (a bottom sheet beside the editor) leave the editor uncovered.
  const hit = await page.locator('article.column[data-variant="0"] g.round rect.round-hit').nth(1).boundingBox();
  await page.mouse.move(hit.x + hit.width / 2, Math.max(hit.y, 0) + 80);
  await page.waitForSelector('.side-panel .round-details');
  const sheet = await page.locator('.side-panel .round-details').boundingBox();
  assert.ok(sheet.x >= editor.x + editor.width && sheet.y + sheet.height <= 801, `the sheet at ${JSON.stringify(sheet)}`);
  await page.mouse.move(5, 5);
  // Scrolling down the lanes keeps the editor in view: it sticks, and
  // scrolls on its own.
  await page.evaluate(() => window.scrollTo(0, 900));
  const field = await workers.boundingBox();
  assert.ok(field.y >= 0 && field.y + field.height <= 800, `the worker count at ${field.y} after scrolling the page`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
  // Its corner's grip makes it wider; the lanes give way.
  const pane = await page.locator('#editor').boundingBox();
  const laneWidth = (await firstLane()).width;
  await page.mouse.move(pane.x + pane.width - 3, pane.y + pane.height - 3);
  await page.mouse.down();
  await page.mouse.move(pane.x + pane.width + 120, pane.y + pane.height - 3, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((w) => document.querySelector('article.column[data-variant="0"] svg.timeline g.lane').getBoundingClientRect().width < w - 30, laneWidth);
  assert.ok(Math.abs((await page.locator('#editor').boundingBox()).width - (pane.width + 123)) < 4, 'the pane is as wide as dragged');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'screens-editor-beside-1280x800');
  // Narrower, the editor is above the timelines again, as wide as the page.
  await page.setViewportSize({ width: 1000, height: 800 });
  const stacked = await page.locator('#editor').boundingBox();
  assert.ok(stacked.y + stacked.height <= (await firstLane()).y, 'at 1000 px the editor is above the lanes');
  assert.ok(stacked.width > 900, `stacked, the editor is ${stacked.width} px wide`);
  // Three compared columns: four cells a row, and no number in them is cut
  // (300000 read as 30000 at first), typed or inherited.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  await openEditor(page);
  const cut = await page.locator('#editor .config-matrix input[type=number]').evaluateAll((es) => es.map((e) => {
    const typed = e.value;
    if (!typed) e.value = e.placeholder;
    const shown = [e.value, e.scrollWidth, e.clientWidth];
    e.value = typed;
    return shown;
  }).filter(([, scroll, client]) => scroll > client));
  assert.deepEqual(cut, []);
  // A long Kafka default (internal.task.assignor.class) stays in its column.
  await page.goto(server.url + '#p=streams/stateful-scale-out');
  await timelineReady(page);
  await openEditor(page);
  const spilled = await page.locator('#editor .config-matrix td.default').evaluateAll((ds) => ds
    .filter((d) => d.scrollWidth > d.clientWidth).map((d) => d.textContent));
  assert.deepEqual(spilled, []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('three columns fit beside the story at 1280 and 1366 px', async () => {
  for (const width of [1280, 1366]) {
    for (const id of ['connect/worker-dies', 'streams/stateful-scale-out']) {
      const page = await newPage(browser, { width, height: 800 });
      await page.goto(server.url + '#p=' + id);
      await timelineReady(page);
      assert.equal(await page.locator('article.column').count(), 3);
      const lanes = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => {
        const b = c.querySelector('svg.timeline g.lane').getBoundingClientRect();
        return [b.left, b.right, b.top];
      }));
      for (const [l, r] of lanes) assert.ok(l >= 0 && r <= width, `${width}px ${id}: a first lane spans ${l}-${r}`);
      assert.ok(lanes.every(([, , top]) => Math.abs(top - lanes[0][2]) < 1), `${width}px ${id}: lanes side by side ${JSON.stringify(lanes)}`);
      const story = await page.locator('.story').boundingBox();
      assert.ok(story.x >= Math.max(...lanes.map(([, r]) => r)), `${width}px ${id}: the story is beside the columns`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
      if (id.startsWith('streams')) await screenshot(page, `screens-three-columns-${width}x800`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  }
});

test('beside a long story, a hovered round\'s details show their explanation whole', async () => {
  const page = await newPage(browser, { width: 1280, height: 800 });
  await page.goto(server.url + '#p=connect/rolling-restart');
  await timelineReady(page);
  const round = page.locator('article.column[data-variant="0"] g.round rect.round-hit').nth(1);
  // Below the sticky playback bar, on the first lanes.
  await round.hover({ position: { x: 5, y: 300 } });
  await page.waitForSelector('.side-panel .round-details[data-round="1"]');
  // Both shrank in proportion to their height, and the story is far taller:
  // the details were two lines high, the rest of the explanation scrolled away.
  const [details, explanation, story] = await Promise.all(['.side-panel .round-details', '.side-panel .round-details .explanation', '.side-panel .story']
    .map((s) => page.locator(s).boundingBox()));
  assert.ok(explanation.y + explanation.height <= details.y + details.height, `the explanation fits: ${JSON.stringify({ details, explanation })}`);
  assert.ok(story.height >= 100 && story.y + 100 <= 800, `the story keeps a place under them: ${JSON.stringify(story)}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a story time never wraps', async () => {
  for (const viewport of [{ width: 1366, height: 800 }, PHONE]) {
    const page = await newPage(browser, viewport);
    // The warmups column's story: probing rebalances until 5 min 57.877 s,
    // times such as "1 min 32.060 s".
    await page.goto(server.url + '#p=streams/stateful-scale-out');
    await timelineReady(page);
    await page.locator('.story-columns button').nth(2).click();
    await page.waitForSelector('.story-list[data-column="2"]');
    // Lines out of the list's view skip rendering (content-visibility:
    // auto) and then have no line boxes to measure: the test flaked with
    // "0 lines". Wrapping is what is tested here, so every line is drawn.
    await page.addStyleTag({ content: '.story-list > li { content-visibility: visible }' });
    const times = await page.locator('.story-at').evaluateAll((ts) => ts.map((t) => {
      // The text's line boxes (the span itself stretches over two grid rows).
      const range = document.createRange();
      range.selectNodeContents(t);
      const rects = [...range.getClientRects()];
      const lines = new Set(rects.map((r) => Math.round(r.top))).size;
      const right = Math.max(...rects.map((r) => r.right));
      const title = t.parentElement.querySelector('.story-title').getBoundingClientRect();
      return { text: t.textContent, lines, overlaps: right > title.left + 0.5 };
    }));
    assert.ok(times.some((t) => t.text.includes('min')), 'the story has times in minutes');
    for (const t of times) {
      assert.equal(t.lines, 1, `${viewport.width}px: "${t.text}" wraps`);
      assert.ok(!t.overlaps, `${viewport.width}px: "${t.text}" runs into its title`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
