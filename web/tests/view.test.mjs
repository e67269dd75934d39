// The view of a run (issue 11): a shared, zoomable time window focused on
// where things happen and kept in the link; columns aligned lane for lane;
// round details beside the timelines; a task followed across columns.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, openFresh, screenshot, timelineReady, openAllMetrics } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The window every column shows, read from each timeline. */
const windows = (page) => page.locator('svg.timeline').evaluateAll((ss) => ss.map((s) => [+s.dataset.from, +s.dataset.to]));
const query = (page) => new URL(page.url()).searchParams;

test('the default window frames the crash: eager\'s stop-the-world is wide, the whole run one click away', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const [[from, to]] = await windows(page);
  assert.ok(from > 20000 && from < 30000 && to > 40600 && to < 60000, `${from}-${to}`);
  // Eager: worker-3's tasks wait unassigned from the crash to the reassignment.
  const unassigned = page.locator('article.column[data-variant="0"] g.lane[data-lane="unassigned"] path.bars.unassigned');
  const focused = (await unassigned.boundingBox()).width;
  assert.ok(focused > 80, `eager's outage is ${focused} px wide in the focus window`);
  await screenshot(page, 'view-focus-1366x800');
  await page.click('#zoom-whole');
  await page.waitForFunction(() => document.querySelector('svg.timeline').dataset.from === '0');
  const whole = (await unassigned.boundingBox()).width;
  assert.ok(whole < focused / 5, `${whole} px over the whole run vs ${focused} px focused`);
  assert.equal(query(page).get('view'), null, 'the link is written after a pause');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('view') === `0-${document.querySelector('article.column').dataset.end}`);
  await page.click('#zoom-focus');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('view'));
  assert.deepEqual(await windows(page), (await windows(page)).map(() => [from, to]));
  assert.deepEqual(page.errors, []);
});

test('wheel zooms around the pointer, dragging the lanes pans, the chart brush zooms; the link follows and a reload restores', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const svg = page.locator('svg.timeline').first();
  await svg.scrollIntoViewIfNeeded();
  const [[f0, t0]] = await windows(page);
  const box = await svg.boundingBox();
  const scrollBefore = await page.evaluate(() => scrollY);
  // Wheel over the lanes: zoom in, every column alike; the page does not scroll.
  await page.mouse.move(box.x + box.width * 0.6, box.y + 60);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((span) => {
    const s = document.querySelector('svg.timeline');
    return +s.dataset.to - +s.dataset.from < span;
  }, t0 - f0);
  assert.equal(await page.evaluate(() => scrollY), scrollBefore);
  const zoomed = await windows(page);
  assert.ok(zoomed.every((w) => w[0] === zoomed[0][0] && w[1] === zoomed[0][1]), JSON.stringify(zoomed));
  const [z0, z1] = zoomed[0];
  assert.ok(z0 > f0 && z1 < t0, `${z0}-${z1} inside ${f0}-${t0}`);
  // Drag on the lanes: pan to later times by the dragged distance.
  await page.mouse.move(box.x + box.width * 0.7, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + 62, { steps: 5 });
  await page.mouse.up();
  const [[p0, p1]] = await windows(page);
  assert.ok(p0 > z0 && p1 - p0 === z1 - z0, `${p0}-${p1} after panning ${z0}-${z1}`);
  // Shift + wheel pans too.
  await page.keyboard.down('Shift');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Shift');
  await page.waitForFunction((p) => +document.querySelector('svg.timeline').dataset.from < p, p0);
  // A brush on the chart picks a window.
  const chart = page.locator('svg.chart');
  const cb = await chart.boundingBox();
  const [left, right] = await chart.evaluate((c) => [+c.dataset.left, +c.dataset.right]);
  const end = +(await page.locator('article.column').first().getAttribute('data-end'));
  const px = (ms) => cb.x + (left + (ms / end) * (right - left)) * (cb.width / (right + 8));
  await page.mouse.move(px(100000), cb.y + 40);
  await page.mouse.down();
  await page.mouse.move(px(200000), cb.y + 40, { steps: 6 });
  await page.mouse.up();
  const [[b0, b1]] = await windows(page);
  assert.ok(Math.abs(b0 - 100000) < 3000 && Math.abs(b1 - 200000) < 3000, `brushed ${b0}-${b1}`);
  // A click on the time axis above the lanes moves the playhead into the window.
  const top = await svg.boundingBox();
  await page.mouse.click(top.x + top.width * 0.5, top.y + 6);
  const t = +(await page.locator('#clock').getAttribute('data-t'));
  assert.ok(t > b0 && t < b1, `playhead ${t} in ${b0}-${b1}`);
  // The link carries the view; a reload (or the link elsewhere) restores it.
  await page.waitForFunction(() => new URL(location.href).searchParams.has('view') && new URL(location.href).searchParams.has('t'));
  assert.equal(query(page).get('view'), `${b0}-${b1}`);
  assert.equal(query(page).get('t'), String(t));
  assert.equal(new URL(page.url()).hash, '#p=connect/worker-dies', 'the scenario is untouched');
  const link = page.url();
  const fresh = await newPage(browser, { width: 1366, height: 800 });
  await fresh.goto(link);
  await timelineReady(fresh);
  assert.deepEqual((await windows(fresh))[0], [b0, b1]);
  assert.equal(+(await fresh.locator('#clock').getAttribute('data-t')), t);
  // Double-click shows the whole run.
  const fb = await fresh.locator('svg.timeline').first().boundingBox();
  await fresh.mouse.dblclick(fb.x + fb.width * 0.5, fb.y + 60);
  await fresh.waitForFunction(() => document.querySelector('svg.timeline').dataset.from === '0');
  assert.deepEqual([...page.errors, ...fresh.errors], []);
});

test('the first worker lane sits at the same height in every column', async () => {
  for (const id of ['connect/worker-dies', 'connect/worker-joins']) {
    const page = await newPage(browser, { width: 1366, height: 800 });
    await page.goto(server.url + '#p=' + id);
    await timelineReady(page);
    for (const lane of ['worker-1', 'worker-2', 'unassigned']) {
      const ys = await page.locator(`g.lane[data-lane="${lane}"] rect.lane-bg`).evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().top));
      assert.ok(ys.length >= 2, `${id}: ${lane} in ${ys.length} columns`);
      assert.ok(ys.every((y) => Math.abs(y - ys[0]) < 0.5), `${id}: ${lane} at ${ys.join(', ')}`);
    }
    // Lanes first: the first lane is on the first screen.
    const y = await page.locator('g.lane[data-lane="worker-1"] rect.lane-bg').first().evaluate((r) => r.getBoundingClientRect().top + scrollY);
    assert.ok(y < 800, `${id}: first lane at ${y}px`);
    // Numbers second: five headline figures a column, the full table one click away.
    const first = page.locator('article.column').first();
    assert.deepEqual(await first.locator('.metrics.headline .metric').evaluateAll((ms) => ms.map((m) => m.dataset.key)),
      ['task_seconds_not_running', 'tasks_stopped', 'longest_task_outage', 'rebalance_rounds', 'duplicate_task_seconds']);
    const settled = first.locator('.all-metrics .metric[data-key="settled_at"]');
    assert.equal(await settled.isVisible(), false);
    await first.locator('.all-metrics summary').click();
    // Built when first unfolded.
    await settled.waitFor();
    assert.ok(await settled.isVisible());
    assert.ok(await first.locator('.all-metrics .metric').count() > 5);
    assert.deepEqual(page.errors, [], id);
    await page.close();
  }
});

/** Metric cards whose text runs out of the card, is cut inside it, or
 *  wraps inside a word or a number ("36.2|40 s") rather than at a space. */
const overflowingCards = (page) => page.locator('.metric').evaluateAll((cards) => cards
  .filter((c) => c.offsetParent !== null)
  .filter((c) => {
    const box = c.getBoundingClientRect();
    return [...c.querySelectorAll('dt, .value, .versus')].some((e) => {
      const r = e.getBoundingClientRect();
      if (r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5 || e.scrollWidth > e.clientWidth + 1) return true;
      const text = e.firstChild;
      if (!e.matches('.value, .versus') || !text || text.nodeType !== Node.TEXT_NODE) return false;
      const range = document.createRange();
      const top = (i) => { range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().top; };
      for (let i = 0; i + 1 < text.length; i++) {
        if (top(i + 1) > top(i) + 1 && text.data[i] !== ' ') return true;
      }
      return false;
    });
  })
  .map((c) => `${c.closest('.column')?.dataset.label} ${c.dataset.key}: ${c.textContent}`));

test('metric cards hold their text at every size, embedded too', async () => {
  for (const [viewport, query] of [[{ width: 1366, height: 800 }, ''], [{ width: 390, height: 844 }, ''], [{ width: 720, height: 480 }, '?embed=1']]) {
    for (const id of ['connect/worker-dies', 'streams/stateful-scale-out']) {
      const page = await newPage(browser, viewport);
      await page.goto(server.url + query + '#p=' + id);
      await timelineReady(page);
      await openAllMetrics(page);
      assert.deepEqual(await overflowingCards(page), [], `${id} at ${viewport.width}×${viewport.height}${query}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  }
});

test('stepping through rounds updates the details panel in place, in view, with the focus on it', async () => {
  for (const viewport of [{ width: 1366, height: 800 }, { width: 390, height: 844 }]) {
    const page = await newPage(browser, viewport);
    await page.goto(server.url + '#p=connect/worker-joins');
    await timelineReady(page);
    const rounds = await page.locator('g.round').count();
    let last = '';
    for (let i = 0; i < Math.min(rounds, 5); i++) {
      await page.keyboard.press('ArrowRight');
      const t = await page.locator('#clock').getAttribute('data-t');
      await page.waitForFunction((t) => {
        const d = document.querySelector('.round-details');
        return d && document.activeElement === d && d.dataset.round !== undefined;
      }, t);
      const details = page.locator('.round-details');
      assert.equal(await details.count(), 1);
      const key = `${await details.getAttribute('data-variant')}/${await details.getAttribute('data-round')}`;
      assert.notEqual(key, last, 'the panel shows the new round');
      last = key;
      const box = await details.boundingBox();
      assert.ok(box.y < viewport.height - 40 && box.y + Math.min(box.height, 80) > 0, `${viewport.width}px: details at ${box.y}`);
      // The story highlights the line of the playhead.
      assert.equal(await page.locator('.story li.current').count(), 1);
      // The members table fits the panel: no column hidden off to the side.
      const sideways = await details.locator('.members-scroll').evaluate((s) => s.scrollWidth - s.clientWidth);
      assert.ok(sideways <= 1, `${viewport.width}px: the members table is ${sideways}px too wide for the panel`);
    }
    await screenshot(page, `view-details-${viewport.width}x${viewport.height}`);
    // Clicking a story line moves the playhead there.
    const line = page.locator('.story li.event').first();
    const at = await line.getAttribute('data-at');
    await line.locator('button').click();
    await page.waitForFunction((at) => document.querySelector('#clock').dataset.t === at, at);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('hovering a task bar names it; a click follows it through every column; Esc stops', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const svg = page.locator('article.column[data-variant="0"] svg.timeline');
  await svg.scrollIntoViewIfNeeded();
  // worker-3's first row: its tasks run there until the crash.
  const lane = await svg.locator('g.lane[data-lane="worker-3"] rect.lane-bg').boundingBox();
  const box = await svg.boundingBox();
  const [left, right] = await svg.evaluate((s) => [+s.dataset.left, +s.dataset.right]);
  const scale = box.width / (right + 8);
  const tip = page.locator('.bar-tooltip');
  let found = false;
  for (const share of [0.05, 0.1, 0.15, 0.2]) {
    await page.mouse.move(box.x + (left + share * (right - left)) * scale, lane.y + 9 * scale);
    if (await tip.count()) { found = true; break; }
  }
  assert.ok(found, 'a tooltip over worker-3\'s first row');
  const text = await tip.textContent();
  const item = await tip.getAttribute('data-item');
  assert.ok(text.includes(item) && text.includes('worker-3') && /running|stopping|starting/.test(text), text);
  assert.match(text, /from .* for /);
  // Click: that task is highlighted in every column, with its move off worker-3 marked.
  await page.mouse.down();
  await page.mouse.up();
  const follows = page.locator(`g.follow[data-item="${item}"]`);
  await follows.first().waitFor();
  assert.equal(await follows.count(), await page.locator('article.column').count());
  assert.ok(await page.locator('article.column[data-variant="0"] g.follow rect.follow-bar').count() >= 2);
  assert.ok(await page.locator('article.column[data-variant="0"] g.follow .follow-move').count() >= 1, 'the move is marked');
  await screenshot(page, 'view-follow-1366x800');
  await page.keyboard.press('Escape');
  await page.waitForSelector('g.follow', { state: 'detached' });
  // A click on empty space stops following too.
  await page.mouse.move(box.x + (left + 0.1 * (right - left)) * scale, lane.y + 9 * scale);
  await page.mouse.down();
  await page.mouse.up();
  await follows.first().waitFor();
  await page.mouse.click(box.x + 4, lane.y + lane.height - 2);
  await page.waitForSelector('g.follow', { state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('each timeline has a text alternative saying what happened; axis labels do not collide', async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  const desc = await page.locator('svg.timeline desc').allTextContents();
  assert.equal(desc.length, await page.locator('article.column').count());
  // Eager settles at 42,540 ms on the formed start (settled_ms of the preset
  // in crates/engine/tests/recorded/behaviour.jsonl), read from the page's
  // own result below rather than trusted from here.
  await openAllMetrics(page);
  const settled = +(await page.locator('article.column[data-variant="0"] .all-metrics .metric[data-key="settled_at"]').getAttribute('data-raw'));
  assert.equal(settled, 42540);
  assert.match(desc[0], /^eager: .*worker-3 crashes at 30 s\. 1 rebalance round; .*settled at 42\.540 s\.$/);
  assert.match(await page.locator('svg.timeline').first().getAttribute('aria-label'), /^Timeline of eager\. eager: /);
  await page.click('#zoom-whole');
  await page.waitForFunction(() => document.querySelector('svg.timeline').dataset.from === '0');
  for (const sel of ['svg.timeline', 'svg.chart']) {
    const overlaps = await page.locator(sel).first().evaluate((s) => {
      const boxes = [...s.querySelectorAll('.tick-label, .x-label')].map((t) => t.getBoundingClientRect()).sort((a, b) => a.left - b.left);
      return boxes.filter((b, i) => i > 0 && b.left < boxes[i - 1].right + 2).length;
    });
    assert.equal(overlaps, 0, `${sel}: colliding axis labels`);
  }
  await screenshot(page, 'view-390x844');
  assert.deepEqual(page.errors, []);
});

test('a formed start shows the generation the group formed in from t = 0; a start from empty shows none yet', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  for (const id of ['connect/worker-dies', 'streams/stateful-scale-out']) {
    await openFresh(page, server.url + '#p=' + id);
    await timelineReady(page);
    assert.equal(await page.locator('#clock').getAttribute('data-t'), '0');
    await page.click('#zoom-whole');
    await page.waitForFunction(() => document.querySelector('svg.timeline').dataset.from === '0');
    const columns = await page.locator('article.column').count();
    for (let c = 0; c < columns; c++) {
      const column = page.locator(`article.column[data-variant="${c}"]`);
      const shown = (await column.locator('.now-generation').textContent()).trim();
      assert.match(shown, /^\d[\d,]*$/, `${id} column ${c + 1}: generation "${shown}" at t = 0`);
      // The trace's formed generation: older than any round the run shows.
      const first = await column.locator('g.round').first().getAttribute('data-generation');
      assert.ok(+shown.replace(/,/g, '') < +first, `${id} column ${c + 1}: ${shown} before round ${first}`);
    }
  }
  await openFresh(page, server.url + '#p=streams/scale-from-zero');
  await timelineReady(page);
  assert.equal((await page.locator('article.column .now-generation').first().textContent()).trim(), '–', 'no group yet');
  assert.deepEqual(page.errors, []);
});

test('the run opens on a formed group: everything runs at t = 0 and the first step goes to the first event\'s round', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  for (const id of ['connect/worker-joins', 'streams/stateful-scale-out']) {
    await openFresh(page, server.url + '#p=' + id);
    await timelineReady(page);
    // No dip at the start: every configured task runs in every column at 0.
    const configured = await page.locator('.running-chart .series-key.configured b').textContent();
    const running = await page.locator('.running-chart .now-value').allTextContents();
    assert.ok(+configured > 0 && running.every((r) => r === configured), `${id}: ${running} of ${configured} at t = 0`);
    const unassigned = await page.locator('article.column .now span:nth-child(2) b').allTextContents();
    assert.ok(unassigned.every((u) => u === '0'), `${id}: ${unassigned} unassigned at t = 0`);
    // No formation rounds to step over: → goes to the first round after the first event.
    await page.click('#zoom-whole');
    const firstEvent = Math.min(...await page.locator('g.event-marker').evaluateAll((es) => es.map((e) => +e.dataset.at)));
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('.round-details');
    const t = +(await page.locator('#clock').getAttribute('data-t'));
    assert.ok(t >= firstEvent, `${id}: first step at ${t} ms, first event at ${firstEvent} ms`);
  }
  assert.deepEqual(page.errors, []);
});
