// Big runs (issue 7): a timeline too tall to draw row by row becomes a
// summary of worker groups (tasks by state over time), with drill-down into
// one group; the page stays responsive.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, screenshot, timelineReady } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function bigLink(page, workers, connectors, tasks) {
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.encodeLink);
  return page.evaluate(([w, c, t]) => window.wasmBindings.encodeLink({
    version: 1, title: `${w} workers`, seed: 1,
    connect: { workers: w, connectors: [{ name: 'c', tasks: t, count: c }] },
    events: [{ at_ms: 30000, type: 'worker_join' }, { at_ms: 60000, type: 'worker_crash', worker: 'worker-7' }],
  }), [workers, connectors, tasks]);
}

test('a big run shows worker groups; a click drills into one group and back', async () => {
  const page = await newPage(browser);
  const fragment = await bigLink(page, 300, 300, 50);
  await page.goto(server.url + '#' + fragment);
  await timelineReady(page, 120000);
  assert.equal(await page.locator('#mode-bar').getAttribute('data-mode'), 'summary');
  const groups = page.locator('article.column').first().locator('g.group');
  const n = await groups.count();
  assert.ok(n >= 2 && n <= 26, `${n} groups`);
  // 301 workers (one joins) in groups of 13.
  assert.equal(await groups.first().getAttribute('data-lane'), 'worker-1 … worker-13');
  // Every column draws the same groups.
  assert.equal(await page.locator('article.column').nth(1).locator('g.group').count(), n);
  // Big numbers read with thousands separators (issue 11) wherever they are:
  // the chart's axis and readout, the column readout, the cards, the editor.
  const grouped = (text) => /^\d{1,3}(,\d{3})+$/.test(text.trim());
  for (const sel of ['svg.chart .y-label', '.running-chart .now-value', 'article.column .now-running']) {
    const text = await page.locator(sel).first().textContent();
    assert.ok(grouped(text), `${sel}: "${text}"`);
  }
  const stopped = page.locator('article.column[data-variant="0"] .metrics.headline .metric[data-key="tasks_stopped"]');
  const raw = +(await stopped.getAttribute('data-raw'));
  assert.ok(raw >= 1000, `tasks stopped ${raw}`);
  assert.equal(await stopped.locator('.value').textContent(), raw.toLocaleString('en-US'));
  assert.match(await page.locator('#editor .editor-summary').textContent(), /300 workers · 300 connectors · 15,000 tasks/);
  const desc = await page.locator('svg.timeline desc').first().textContent();
  assert.match(desc, /301 workers, 15,000 tasks/);
  // A click on a group drills down, in every column.
  await page.locator('article.column').first().locator('g.group').nth(1).click();
  await page.waitForSelector('#mode-bar[data-mode="drill"]');
  const column = page.locator('article.column').first();
  assert.equal(await column.locator('.timeline-body').getAttribute('data-lanes'), '13');
  // The drilled group is tall: only lanes near the screen are drawn (virtualized) ...
  const drawn = await column.locator('g.lane').evaluateAll((ls) => ls.map((l) => l.dataset.lane));
  assert.deepEqual(drawn, Array.from({ length: drawn.length }, (_, i) => `worker-${14 + i}`));
  assert.ok(drawn.length < 13, `${drawn.length} lanes drawn`);
  // ... and the others appear as they scroll into view.
  await column.locator('svg.timeline').evaluate((s) => s.scrollIntoView({ block: 'end' }));
  await column.locator('g.lane[data-lane="worker-26"]').waitFor();
  await screenshot(page, 'big-drill-1280x800');
  await page.click('#all-groups');
  await page.waitForSelector('#mode-bar[data-mode="summary"]');
  assert.deepEqual(page.errors, []);
});

test('1,000 workers × 100,000 tasks: drawn, responsive, scrubbed smoothly', async () => {
  const page = await newPage(browser);
  const fragment = await bigLink(page, 1000, 1000, 100);
  const fresh = await newPage(browser);
  await fresh.addInitScript(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  await fresh.goto(server.url + '#' + fragment);
  await timelineReady(fresh, 300000);
  const drawn = await fresh.evaluate(() => performance.now());
  const gaps = await fresh.evaluate(() => window.__gaps);
  // The page's DOM stays small: groups, not a hundred thousand rows.
  const nodes = await fresh.evaluate(() => document.querySelectorAll('*').length);
  assert.ok(nodes < 5000, `${nodes} DOM nodes`);
  // Scrub: 30 pointer moves along the first timeline's time axis (the strip
  // above the lanes; issue 11 made a drag on the lanes pan), over the whole
  // run, each drawn in its own frame.
  await fresh.click('#zoom-whole');
  await fresh.waitForFunction(() => document.querySelector('svg.timeline').dataset.from === '0');
  const svg = fresh.locator('svg.timeline').first();
  // The axis strip well below the sticky transport bar.
  await svg.evaluate((s) => window.scrollTo(0, s.getBoundingClientRect().top + scrollY - 240));
  const box = await svg.boundingBox();
  const y = box.y + 8;
  await fresh.mouse.move(box.x + box.width * 0.2, y);
  await fresh.mouse.down();
  const t0 = await fresh.evaluate(() => performance.now());
  for (let i = 1; i <= 30; i++) {
    await fresh.mouse.move(box.x + box.width * (0.2 + i * 0.02), y);
    await fresh.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  const t1 = await fresh.evaluate(() => performance.now());
  await fresh.mouse.up();
  // The drag scrubbed to about 80 % of the run.
  const end = +(await fresh.locator('article.column').first().getAttribute('data-end'));
  const t = +(await fresh.locator('#clock').getAttribute('data-t'));
  assert.ok(t > end * 0.7 && t < end * 0.9, `scrubbed to ${t} of ${end}`);
  // Zoom: 10 wheel steps over the lanes, each redrawn in its own frame.
  const w0 = await fresh.evaluate(() => performance.now());
  await fresh.mouse.move(box.x + box.width * 0.5, box.y + 60);
  for (let i = 0; i < 10; i++) {
    await fresh.mouse.wheel(0, -120);
    await fresh.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  const perZoom = (await fresh.evaluate(() => performance.now()) - w0) / 10;
  const [from, to] = await svg.evaluate((s) => [+s.dataset.from, +s.dataset.to]);
  assert.ok(to - from < end / 2, `zoomed to ${from}-${to}`);
  console.log(`# 1000x100k: ${perZoom.toFixed(1)} ms per wheel zoom step (wheel + frame, incl. test round trips)`);
  assert.ok(perZoom < 200, `${perZoom} ms per zoom step`);
  const perMove = (t1 - t0) / 30;
  console.log(`# 1000x100k: first timeline ${Math.round(drawn)} ms after navigation; longest main-thread gap ${Math.round(Math.max(...gaps))} ms; ${nodes} DOM nodes; ${perMove.toFixed(1)} ms per scrub step (move + frame, incl. test round trips)`);
  assert.ok(perMove < 100, `${perMove} ms per scrub step`);
  await screenshot(fresh, 'big-1000x100k-1280x800');
  assert.deepEqual(fresh.errors, []);
});
