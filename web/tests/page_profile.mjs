// Where an edit's time goes in the page (issue #13): for a few scenarios,
// one edit of the worker or instance count, traced with Chromium's
// `Tracing` domain, and the main thread's self time split into script
// (WebAssembly and JS: Yew's diffing and DOM calls), style, layout, paint
// and GC, with the page's own steps as `?profile=1` logs them (decode,
// layout, bar paths, …) and the longest main-thread task. Not a test:
// `node page_profile.mjs` after a release build (DIST_DIR like the tests).
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';
import { recordTrace, rendererMain } from './trace.mjs';

const GROUPS = [
  ['script', /^(FunctionCall|EvaluateScript|v8\.|V8\.|RunMicrotasks|TimerFire|EventDispatch|FireAnimationFrame|v8\.compile|ParseScript|CompileScript|wasm|WebAssembly|HandlePostMessage)/],
  ['style', /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation)/],
  ['layout', /^(Layout|UpdateLayout|IntersectionObserverController)/],
  ['paint', /^(Paint|PrePaint|Layerize|PaintImage|UpdateLayer|Commit|CompositeLayers|RasterTask|ScrollLayer|UpdateLayerTree)/],
  ['gc', /(GC|GarbageCollect|MinorGC|MajorGC)/],
];

function breakdown(events) {
  const onMain = rendererMain(events).filter((e) => e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  const stack = [];
  let longest = 0;
  for (const e of onMain) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.child += e.dur;
    if (e.name === 'RunTask' && !parent) longest = Math.max(longest, e.dur / 1000);
    const node = { e, end: e.ts + e.dur, child: 0 };
    stack.push(node);
    node.done = () => self.set(e.name, (self.get(e.name) ?? 0) + (e.dur - node.child) / 1000);
    e.node = node;
  }
  for (const e of onMain) e.node.done();
  const out = Object.fromEntries(GROUPS.map(([g]) => [g, 0]));
  out.other = 0;
  const names = [];
  for (const [name, ms] of self) {
    const g = GROUPS.find(([, re]) => re.test(name));
    if (g) out[g[0]] += ms; else if (name !== 'RunTask' && name !== 'ThreadControllerImpl::RunTask') out.other += ms;
    names.push([name, ms]);
  }
  names.sort((a, b) => b[1] - a[1]);
  return { groups: out, longest, top: names.slice(0, 8) };
}

async function trace(page, act) {
  const { result: ms, events } = await recordTrace(page,
    ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel', '__metadata'], act);
  return { ms, ...breakdown(events) };
}

async function profileEdit(browser, url, field, runs) {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const logs = [];
  page.on('console', (m) => { if (m.type() === 'log') logs.push(m.text()); });
  await page.goto(url);
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  await openEditor(page);
  const n = +(await page.inputValue(field));
  const results = [];
  for (let i = 0; i < runs; i++) {
    logs.length = 0;
    const before = await page.locator('main').getAttribute('data-request');
    await page.fill(field, String(i % 2 === 0 ? n + 1 : n));
    const r = await trace(page, async () => {
      const t0 = await page.evaluate(() => performance.now());
      await page.press(field, 'Enter');
      await page.waitForFunction((r) => document.querySelector('main').dataset.request !== r, before);
      await simulationShown(page, 120000);
      const done = await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now()))));
      return done - t0;
    });
    r.sim = +(await page.locator('main').getAttribute('data-sim-ms'));
    r.steps = [...logs];
    results.push(r);
  }
  await page.close();
  return results;
}

const server = await serveStatic();
const browser = await launchBrowser();
const RUNS = Number(process.env.PROFILE_RUNS ?? 3);
try {
  const probe = await newPage(browser);
  await probe.goto(`${server.url}#p=connect/worker-joins`);
  await probe.waitForFunction(() => window.wasmBindings?.encodeLink);
  const link = (s) => probe.evaluate((s) => window.wasmBindings.encodeLink(s), s);
  const big = await link({
    version: 1, title: '1,000 workers, 100,000 tasks', seed: 1,
    connect: { workers: 1000, connectors: [{ name: 'c', tasks: 100, count: 1000 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }, { at_ms: 60000, type: 'worker_crash', worker: 'worker-3' }],
  });
  const mid = await link({
    version: 1, title: '100 workers, 10,000 tasks', seed: 1,
    connect: { workers: 100, connectors: [{ name: 'c', tasks: 100, count: 100 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }, { at_ms: 60000, type: 'worker_crash', worker: 'worker-3' }],
  });
  await probe.close();
  const cases = (process.env.PROFILE_ONLY ?? 'rolling,storm,streams,mid,big').split(',');
  const all = {
    rolling: ['preset connect/rolling-restart', '#p=connect/rolling-restart', '#workers'],
    storm: ['preset connect/rebalance-storm', '#p=connect/rebalance-storm', '#workers'],
    streams: ['preset streams/stateful-scale-out', '#p=streams/stateful-scale-out', '#instances'],
    mid: ['100 × 10,000', `#${mid}`, '#workers'],
    big: ['1,000 × 100,000', `#${big}`, '#workers'],
  };
  for (const c of cases) {
    const [name, hash, field] = all[c];
    const rs = await profileEdit(browser, `${server.url}?profile=1${hash}`, field, RUNS);
    for (const r of rs) {
      const g = Object.entries(r.groups).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
      console.log(`${name}: edit → redrawn ${r.ms.toFixed(0)} ms (simulated in the worker ${r.sim} ms); main thread: ${g} ms; longest task ${r.longest.toFixed(0)} ms`);
      console.log(`    page steps: ${r.steps.join('; ')}`);
      console.log(`    top self time: ${r.top.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
