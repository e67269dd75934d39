// One warm edit, traced (issue #13): the main thread's tasks from the edit
// to the end of the frame that shows its result, each with its duration and
// what ran inside it (script, style, layout with its dirty objects, paint),
// and with TRACE_INVALIDATIONS=1 what invalidated style and layout
// (Chromium's invalidation tracking: the node and the reason; it slows DOM
// changes several times over, so its timings do not count). Not a test:
//   TRACE_PRESET=connect/rolling-restart node edit_trace.mjs
// after a release build (DIST_DIR like the tests). TRACE_EDITS (default 3)
// edits are traced after four warm-up edits; TRACE_CSS is a stylesheet
// added before them (to see what it changes). docs/performance.md,
// "Session 18".
import { serveStatic, launchBrowser, newPage } from './harness.mjs';
import { QUIET_BROWSER_ARGS, editRedrawn, openForEdits } from './page_bench.mjs';
import { recordTrace, rendererMain } from './trace.mjs';

const ID = process.env.TRACE_PRESET ?? 'connect/rolling-restart';
const EDITS = Number(process.env.TRACE_EDITS ?? 3);
const INVALIDATIONS = Boolean(process.env.TRACE_INVALIDATIONS);
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', '__metadata',
  ...(INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])];

const count = (xs, key) => {
  const c = new Map();
  for (const x of xs) c.set(key(x), (c.get(key(x)) ?? 0) + 1);
  return [...c].sort((a, b) => b[1] - a[1]);
};

function report(events, marks) {
  const main = rendererMain(events).sort((a, b) => a.ts - b.ts);
  for (const [t0, t1] of marks) {
    const inside = main.filter((e) => e.ts >= t0 && e.ts <= t1);
    console.log(`\n--- edit: ${((t1 - t0) / 1000).toFixed(1)} ms`);
    for (const task of inside.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.dur > 300)) {
      const kids = inside.filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur);
      const named = kids.filter((e) => /^(FunctionCall|EventDispatch|FireAnimationFrame|HandlePostMessage|TimerFire|UpdateLayoutTree|Layout|PrePaint|Paint|Layerize|Commit|RunMicrotasks|BeginMainThreadFrame|UpdateLayer|v8\.callFunction)$/.test(e.name) && e.dur > 100);
      const parts = named.map((e) => {
        let extra = '';
        if (e.name === 'Layout') extra = ` dirty ${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}${e.args?.beginData?.partialLayout ? ' partial' : ''} roots ${(e.args?.endData?.layoutRoots ?? []).length}`;
        if (e.name === 'UpdateLayoutTree') extra = ` elements ${e.args?.elementCount ?? ''}`;
        if (e.name === 'FunctionCall') extra = ` ${e.args?.data?.functionName ?? ''}`;
        if (e.name === 'EventDispatch') extra = ` ${e.args?.data?.type ?? ''}`;
        return `${e.name}${extra} ${(e.dur / 1000).toFixed(2)}`;
      });
      console.log(`  +${((task.ts - t0) / 1000).toFixed(1)} task ${(task.dur / 1000).toFixed(2)} ms: ${parts.join(' | ')}`);
    }
    if (!INVALIDATIONS) continue;
    const layoutInv = inside.filter((e) => e.name === 'LayoutInvalidationTracking');
    console.log('  layout invalidations:', JSON.stringify(count(layoutInv, (e) => `${e.args?.data?.nodeName} (${e.args?.data?.reason})`).slice(0, 25)));
    const styleInv = inside.filter((e) => /StyleRecalcInvalidationTracking|StyleInvalidatorInvalidationTracking|ScheduleStyleInvalidationTracking/.test(e.name));
    console.log('  style invalidations:', JSON.stringify(count(styleInv, (e) => `${e.name.replace('InvalidationTracking', '')} ${e.args?.data?.nodeName} (${e.args?.data?.reason ?? e.args?.data?.invalidationList?.[0]?.classes ?? ''})`).slice(0, 25)));
  }
}

const server = await serveStatic();
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
try {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const { field, n } = await openForEdits(page, server, ID);
  if (process.env.TRACE_CSS) await page.addStyleTag({ content: process.env.TRACE_CSS });
  for (let i = 0; i < 4; i++) await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n);
  const { result: stamps, events } = await recordTrace(page, CATEGORIES, async () => {
    const ms = [];
    for (let i = 0; i < EDITS; i++) {
      await page.evaluate((i) => console.timeStamp(`edit-start-${i}`), i);
      ms.push((await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n)).ms);
    }
    return ms;
  });
  // The edits' spans: from each TimeStamp mark, as long as the page measured.
  const main = rendererMain(events);
  const marks = main.filter((e) => e.name === 'TimeStamp' && /edit-start/.test(e.args?.data?.message ?? ''))
    .map((e, i) => [e.ts, e.ts + stamps[i] * 1000 + 2000]);
  console.log(`${ID}: edits ${stamps.map((x) => x.toFixed(1)).join(', ')} ms`);
  report(events, marks);
} finally {
  await browser.close();
  await server.close();
}
