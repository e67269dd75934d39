// Where a cold preset load's time goes (issue #13: navigation → first drawn
// timeline < 200 ms): one load per run in a fresh browser context (cold HTTP
// and code caches), traced with Chromium's `Tracing` domain from before the
// navigation. Prints, in ms after the navigation started, when each file was
// requested and finished, when each WebAssembly module's streaming compile
// ran and on which thread, the page's milestones (worker created, its
// `ready`, the request posted, the result received, first timeline in the
// DOM, the frame that painted it), and the busy time of the renderer's main
// thread and of each worker thread in between. Not a test:
// `node first_profile.mjs` after a release build (DIST_DIR like the tests;
// FIRST_URL, default `#p=connect/worker-joins`; FIRST_RUNS, default 3;
// FIRST_VERBOSE=1 lists every task over 2 ms).
import { serveStatic, launchBrowser } from './harness.mjs';
import { QUIET_BROWSER_ARGS } from './page_bench.mjs';
import { recordTrace } from './trace.mjs';

const RUNS = Number(process.env.FIRST_RUNS ?? 3);
const HASH = process.env.FIRST_URL ?? '#p=connect/worker-joins';
const VERBOSE = process.env.FIRST_VERBOSE === '1';

/** Page-side milestones as `performance.mark`s (they land in the trace). */
async function instrument(page) {
  await page.addInitScript(() => {
    const mark = (name) => performance.mark(name);
    const Base = window.Worker;
    let n = 0;
    if (Base) {
      window.Worker = class extends Base {
        constructor(...args) {
          super(...args);
          const k = ++n;
          mark(`worker ${k} created`);
          let firstReply = true;
          this.addEventListener('message', (e) => {
            if (e.data === 'ready') mark(`worker ${k} ready received`);
            else if (e.data && typeof e.data === 'object' && !('progress' in e.data) && firstReply) {
              firstReply = false;
              mark(`worker ${k} first reply received`);
            }
          });
        }
        postMessage(...args) {
          mark('request posted');
          return super.postMessage(...args);
        }
      };
    }
    new MutationObserver((_, obs) => {
      if (document.querySelector('main')) {
        if (!window.__mainMarked) { window.__mainMarked = true; mark('first render (main in DOM)'); }
      }
      if (document.querySelector('svg.timeline path.bars')) {
        mark('first timeline in DOM');
        window.__firstTimeline = performance.now();
        obs.disconnect();
        requestAnimationFrame(() => setTimeout(() => { mark('first timeline painted (frame after)'); window.__painted = true; }, 0));
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

function threads(events) {
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  return names;
}

/** Busy time (top-level tasks) of one thread between two timestamps, µs. */
function busy(events, key, from, to) {
  let sum = 0;
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== key || e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask') continue;
    const a = Math.max(from, e.ts);
    const b = Math.min(to, e.ts + (e.dur ?? 0));
    if (b > a) sum += b - a;
  }
  return sum;
}

/** The biggest events directly inside a task, by duration. */
function inside(events, task) {
  const end = task.ts + task.dur;
  const kids = events.filter((e) => e !== task && e.pid === task.pid && e.tid === task.tid && e.ph === 'X'
    && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 500 && !/RunTask/.test(e.name));
  kids.sort((a, b) => b.dur - a.dur);
  return kids.slice(0, 6).map((e) => `${e.name} ${(e.dur / 1000).toFixed(1)}`).join(', ');
}

function report(events) {
  const names = threads(events);
  const t0e = events.find((e) => e.name === 'navigationStart' && e.cat.includes('blink.user_timing'))
    ?? events.find((e) => e.name === 'ResourceSendRequest');
  const t0 = t0e.ts;
  const ms = (ts) => ((ts - t0) / 1000).toFixed(1).padStart(7);
  const rows = [];
  const req = new Map();
  for (const e of events) {
    const d = e.args?.data;
    if (e.name === 'ResourceSendRequest' && d?.url) req.set(d.requestId, { url: d.url.replace(/^https?:\/\/[^/]+\//, '').replace(/#.*/, '') || 'index.html', start: e.ts });
    if (e.name === 'ResourceFinish' && req.has(d?.requestId)) req.get(d.requestId).end = e.ts;
  }
  for (const r of req.values()) if (!r.url.startsWith('chrome')) rows.push([r.start, `fetch ${r.url}${r.end ? ` (done at ${ms(r.end).trim()} ms)` : ''}`]);
  for (const e of events) {
    const thread = names.get(`${e.pid}:${e.tid}`) ?? `${e.tid}`;
    if (e.cat?.includes('blink.user_timing') && e.name !== 'navigationStart' && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b')) {
      rows.push([e.ts, `mark: ${e.name}`]);
    }
    if (/^(wasm\.|v8\.wasm\.)/.test(e.name) && e.ph === 'X' && (e.dur ?? 0) > 1000) {
      rows.push([e.ts, `${e.name} ${(e.dur / 1000).toFixed(1)} ms on ${thread}`]);
    }
    if (VERBOSE && e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) > 2000 && /CrRendererMain|DedicatedWorker/.test(thread)) {
      rows.push([e.ts, `task ${(e.dur / 1000).toFixed(1)} ms on ${thread}: ${inside(events, e)}`]);
    }
    if (e.name === 'FunctionCall' && (e.dur ?? 0) > 2000 && /Renderer|Worker/.test(thread)) {
      rows.push([e.ts, `  script ${(e.dur / 1000).toFixed(1)} ms on ${thread} ${e.args?.data?.functionName ?? ''} ${e.args?.data?.url?.replace(/^.*\//, '') ?? ''}`]);
    }
    if (e.name === 'EvaluateScript' && (e.dur ?? 0) > 1000) {
      rows.push([e.ts, `  evaluate ${(e.dur / 1000).toFixed(1)} ms on ${thread} ${e.args?.data?.url?.replace(/^.*\//, '') ?? ''}`]);
    }
  }
  rows.sort((a, b) => a[0] - b[0]);
  for (const [ts, text] of rows) console.log(`${ms(ts)}  ${text}`);
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing'));
  const end = marks.find((e) => e.name === 'first timeline painted (frame after)')?.ts ?? Math.max(...events.map((e) => e.ts));
  const summary = [];
  for (const [key, name] of names) {
    if (!/CrRendererMain|DedicatedWorker/.test(name)) continue;
    const b = busy(events, key, t0, end);
    if (b > 1000) summary.push(`${name} (${key.split(':')[1]}) busy ${(b / 1000).toFixed(0)} ms`);
  }
  console.log(`  up to the painted first timeline (${ms(end).trim()} ms): ${summary.join('; ')}`);
}

const server = await serveStatic();
const browser = await launchBrowser(process.env.FIRST_OMNIBOX === '1' ? [] : QUIET_BROWSER_ARGS);
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await instrument(page);
    const { result: first, events } = await recordTrace(page,
      ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.wasm',
        'disabled-by-default-v8.wasm.detailed', 'blink', 'blink.user_timing', 'loading', 'toplevel', '__metadata'],
      async () => {
        await page.goto(`${server.url}${HASH}`);
        await page.waitForFunction(() => window.__painted, null, { timeout: 120000 });
        return page.evaluate(() => window.__firstTimeline);
      });
    console.log(`\nrun ${i + 1}: first timeline in the DOM at ${first.toFixed(0)} ms (performance.now())`);
    report(events);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
