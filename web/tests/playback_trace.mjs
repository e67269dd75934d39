// Why a playback frame came late (issue #13: 60 fps, no dropped frame while
// zoomed). Plays a preset zoomed in as page_bench's playback measure does,
// watches its frames, and for each frame later than the measure's limit
// prints the DOM changes made just before it (a MutationObserver in the
// page) and, traced (PLAY_TRACE=1, Chromium's `Tracing`), the main thread's
// work in it and the raster tasks of the other threads with the layer each
// drew (layer ids as the `LayerTree` domain names them). Not a test:
//   node playback_trace.mjs
// after a release build (DIST_DIR like the tests); PLAY_PRESET (default the
// storm), PLAY_RUNS (default 3), PLAY_CSS (a stylesheet added first, to try
// a change). docs/performance.md, "Session 20".
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown } from './harness.mjs';
import { QUIET_BROWSER_ARGS, DROPPED_MS, PLAY_WATCH_MS, startZoomedPlayback } from './page_bench.mjs';
import { recordTrace, rendererMain } from './trace.mjs';

const ID = process.env.PLAY_PRESET ?? 'connect/rebalance-storm';
const RUNS = Number(process.env.PLAY_RUNS ?? 3);
const TRACED = process.env.PLAY_TRACE === '1';
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', '__metadata', 'cc'];

/** Frames for PLAY_WATCH_MS, with every DOM change (time from the first frame, kind, element). */
function watch(page) {
  return page.evaluate((ms) => new Promise((done) => {
    const changes = [];
    let t0 = 0;
    const record = new MutationObserver((list) => {
      const at = performance.now() - t0;
      for (const m of list) {
        const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
        const cls = (el?.getAttribute?.('class') ?? '').split(' ')[0];
        changes.push([at, `${m.type} ${el?.tagName?.toLowerCase() ?? '?'}${cls ? `.${cls}` : ''}${m.attributeName ? ` @${m.attributeName}` : ''}`]);
      }
    });
    record.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    const ts = [];
    const frame = (t) => {
      if (!ts.length) t0 = performance.now();
      ts.push(t);
      if (t - ts[0] < ms) requestAnimationFrame(frame);
      else { record.disconnect(); done({ ts, changes }); }
    };
    requestAnimationFrame(frame);
  }), PLAY_WATCH_MS);
}

const tally = (keys) => {
  const c = new Map();
  for (const k of keys) c.set(k, (c.get(k) ?? 0) + 1);
  return [...c].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${n}× ${k}`).join('; ');
};

/** The traced work inside each late animation-frame interval. */
function explain(events) {
  const main = rendererMain(events);
  const threads = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const frames = main.filter((e) => e.name === 'FireAnimationFrame').sort((a, b) => a.ts - b.ts);
  for (let i = 1; i < frames.length; i++) {
    const [t0, t1] = [frames[i - 1].ts, frames[i].ts];
    if ((t1 - t0) / 1000 <= DROPPED_MS) continue;
    const within = (e) => e.ph === 'X' && e.ts >= t0 && e.ts < t1;
    const work = main.filter((e) => within(e) && e.dur > 1500
      && /^(FunctionCall|TimerFire|FireAnimationFrame|UpdateLayoutTree|Layout|PrePaint|Paint|Layerize|Commit|MinorGC|MajorGC)$/.test(e.name));
    console.log(`  traced interval ${((t1 - t0) / 1000).toFixed(1)} ms: ${work.map((e) => `${e.name}${e.name === 'Layout' ? ` ${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}` : ''} ${(e.dur / 1000).toFixed(1)}`).join(' | ') || 'nothing over 1.5 ms on the main thread'}`);
    const raster = events.filter((e) => within(e) && e.name === 'RasterTask' && e.dur > 1000);
    if (raster.length) {
      console.log(`    raster: ${raster.map((e) => `layer ${e.args?.tileData?.layerId} ${(e.dur / 1000).toFixed(1)} ms on ${threads.get(`${e.pid}:${e.tid}`)}`).join(', ')}`);
    }
  }
}

const server = await serveStatic();
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await newPage(browser, { width: 1366, height: 800 });
    await page.goto(`${server.url}#p=${ID}`);
    await timelineReady(page, 120000);
    await simulationShown(page, 120000);
    if (process.env.PLAY_CSS) await page.addStyleTag({ content: process.env.PLAY_CSS });
    const zoom = await startZoomedPlayback(page);
    const { result: { ts, changes }, events } = TRACED
      ? await recordTrace(page, CATEGORIES, () => watch(page))
      : { result: await watch(page), events: [] };
    const late = ts.slice(1).map((t, i) => [t - ts[i], ts[i] - ts[0]]).filter(([gap]) => gap > DROPPED_MS);
    console.log(`${ID}, zoomed ${zoom.toFixed(1)}×, run ${run}: ${ts.length - 1} frames, ${late.length} late${late.map(([gap, at]) => ` (${gap.toFixed(1)} ms at ${at.toFixed(0)} ms)`).join('')}`);
    for (const [, at] of late) {
      console.log(`  changes in the 40 ms before ${at.toFixed(0)} ms: ${tally(changes.filter(([t]) => t >= at - 40 && t <= at).map(([, k]) => k)) || 'none'}`);
    }
    if (TRACED) explain(events);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
