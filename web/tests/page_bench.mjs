// The page's own measures for `cargo xtask bench` (issue #13): navigation →
// first drawn timeline (cold cache), edit → redrawn timeline for every
// preset, an edit that supersedes a busy simulation, and the longest
// main-thread task meanwhile. Medians, minima and maxima over several runs;
// printed by bench.mjs next to the engine's workloads. Not a test.
import os from 'node:os';
import { newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });

/** Records the first drawn timeline and every long main-thread task. */
async function instrument(page) {
  await page.addInitScript(() => {
    window.__longest = 0;
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask', buffered: true });
    } catch (e) { /* no long-task timing here */ }
    new MutationObserver((_, obs) => {
      if (document.querySelector('svg.timeline path.bars')) {
        window.__firstTimeline = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Navigation (fresh browser context: cold HTTP and code caches) → first drawn timeline. */
async function firstTimeline(browser, url) {
  const page = await newPage(browser);
  await instrument(page);
  await page.goto(url);
  await timelineReady(page, 120000);
  const out = await page.evaluate(() => ({ ms: window.__firstTimeline, longest: window.__longest }));
  await page.close();
  return out;
}

/** One edit of the instance or worker count → the new result drawn (the frame after). */
async function edit(page, field, value) {
  const before = await page.locator('main').getAttribute('data-request');
  await page.fill(field, String(value));
  const t0 = await page.evaluate(() => { window.__longest = 0; return performance.now(); });
  await page.press(field, 'Enter');
  await page.waitForFunction((r) => document.querySelector('main').dataset.request !== r, before);
  await simulationShown(page, 120000);
  const done = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
  return { ms: done - t0, longest: await page.evaluate(() => window.__longest) };
}

/** The page measures; `presets` are ids, `runs` per measure. */
export async function measurePage(browser, server, presets, runs) {
  const rows = [];
  const longest = [];
  // Navigation → first timeline: every preset link, and one scenario link
  // (its scenario is parsed by the simulator before it simulates).
  const nav = [];
  for (const id of presets) {
    for (let i = 0; i < runs; i++) {
      const r = await firstTimeline(browser, `${server.url}#p=${id}`);
      nav.push(r.ms);
      longest.push(r.longest);
    }
  }
  rows.push({ measure: 'navigation → first timeline, preset links (cold cache)', ...stats(nav) });
  const probe = await newPage(browser);
  await probe.goto(`${server.url}#p=connect/worker-joins`);
  await probe.waitForFunction(() => window.wasmBindings?.decodeLink);
  const fragment = await probe.evaluate(() => window.wasmBindings.encodeLink(window.wasmBindings.decodeLink('p=connect/worker-joins')));
  const big = await probe.evaluate(() => window.wasmBindings.encodeLink({
    version: 1, title: '1,000 workers, 100,000 tasks', seed: 1,
    connect: { workers: 1000, connectors: [{ name: 'c', tasks: 100, count: 1000 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }, { at_ms: 60000, type: 'worker_crash', worker: 'worker-3' }],
  }));
  await probe.close();
  const navLink = [];
  for (let i = 0; i < runs; i++) {
    const r = await firstTimeline(browser, `${server.url}#${fragment}`);
    navLink.push(r.ms);
    longest.push(r.longest);
  }
  rows.push({ measure: 'navigation → first timeline, #s= scenario link (cold cache)', ...stats(navLink) });

  // Edit → redrawn timeline: the worker or instance count, up and down again.
  const edits = [];
  for (const id of presets) {
    const page = await newPage(browser);
    await instrument(page);
    await page.goto(`${server.url}#p=${id}`);
    await timelineReady(page, 120000);
    await simulationShown(page, 120000);
    await openEditor(page);
    const field = id.startsWith('streams/') ? '#instances' : '#workers';
    const n = +(await page.inputValue(field));
    for (let i = 0; i < runs; i++) {
      const r = await edit(page, field, i % 2 === 0 ? n + 1 : n);
      edits.push(r.ms);
      longest.push(r.longest);
    }
    await page.close();
  }
  rows.push({ measure: 'edit → redrawn timeline, every preset', ...stats(edits) });

  // 1,000 × 100,000: one edit, and two edits a frame apart (the second
  // supersedes the first while it simulates), timed from the last edit.
  const bigEdits = [];
  const superseding = [];
  {
    const page = await newPage(browser);
    await instrument(page);
    await page.goto(`${server.url}#${big}`);
    await timelineReady(page, 120000);
    await simulationShown(page, 120000);
    await openEditor(page);
    for (let i = 0; i < runs; i++) {
      const r = await edit(page, '#workers', i % 2 === 0 ? 1001 : 1000);
      bigEdits.push(r.ms);
      longest.push(r.longest);
    }
    for (let i = 0; i < runs; i++) {
      const first = +(await page.locator('main').getAttribute('data-request'));
      const t = await page.evaluate(async (i) => {
        const input = document.getElementById('workers');
        const commit = (v) => { input.value = v; input.dispatchEvent(new Event('change', { bubbles: true })); };
        commit(String(1002 + i));
        await new Promise((r) => requestAnimationFrame(() => r()));
        window.__longest = 0;
        const t0 = performance.now();
        commit(String(1000 + (i % 2)));
        return t0;
      }, i);
      await page.waitForFunction((r) => +document.querySelector('main').dataset.request >= r + 2, first);
      await simulationShown(page, 120000);
      const done = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
      superseding.push(done - t);
      longest.push(await page.evaluate(() => window.__longest));
    }
    rows.push({ measure: '1,000 × 100,000: edit → redrawn', ...stats(bigEdits) });
    rows.push({ measure: '1,000 × 100,000: edit superseding a busy run → redrawn', ...stats(superseding),
      superseded: +(await page.locator('main').getAttribute('data-superseded')) });
    await page.close();
  }
  rows.push({ measure: 'longest main-thread task during all of the above', ...stats(longest.filter((x) => x > 0).length ? longest : [0]) });
  return rows;
}

/** The machine, for the record. */
export async function machine(browser) {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${os.loadavg()[0].toFixed(1)}, ${os.type()} ${os.release()}, Chromium ${browser.version()}`;
}

/** Prints the page measures as a table. */
export function printPage(rows, machineNote) {
  const w = Math.max(...rows.map((r) => r.measure.length));
  console.log(`\npage (${machineNote})`);
  console.log(`${'measure'.padEnd(w)}  median      min      max   runs`);
  for (const r of rows) {
    const ms = (x) => `${x.toFixed(0).padStart(6)} ms`;
    console.log(`${r.measure.padEnd(w)}  ${ms(r.median)} ${ms(r.min)} ${ms(r.max)}  ${String(r.n).padStart(5)}${r.superseded !== undefined ? `  (${r.superseded} busy runs cut short)` : ''}`);
  }
}
