// The page's own measures for `cargo xtask bench` (issue #13): navigation →
// first drawn timeline (cold cache), edit → redrawn timeline for every
// preset and the same measure's floor (a page that only round-trips a
// worker message: floor/index.html), an edit that supersedes a busy
// simulation, the longest main-thread task meanwhile, and playback of the
// largest preset zoomed in (frames per second, dropped frames). Medians,
// minima and maxima over several runs; printed by bench.mjs next to the
// engine's workloads. Not a test. BENCH_PAGE=nav,edit,big,playback picks
// some of them (default all).
import os from 'node:os';
import { newPage, timelineReady, simulationShown, openEditor, briefSettled, serveStatic } from './harness.mjs';

/**
 * Chromium flags for the page measures: headless Chromium opens a window per
 * browser context, and each new window preloads the omnibox's WebUI popup
 * (a renderer loading ~300 chrome:// scripts) while the page loads. On two
 * cores that took 70–250 ms from a cold load that a tab in a running browser
 * never pays (docs/performance.md, "Session 7"), so the bench turns it off.
 */
export const QUIET_BROWSER_ARGS = ['--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup'];

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
    // Drawn: the end of the frame that paints the first timeline's bars (a
    // task posted from that frame's animation-frame callback runs after its
    // style, layout and paint), as the edit measure ends; their insertion
    // into the DOM comes a layout and a paint earlier.
    new MutationObserver((_, obs) => {
      if (document.querySelector('svg.timeline path.bars')) {
        obs.disconnect();
        requestAnimationFrame(() => {
          const drawn = () => { window.__firstTimeline = performance.now(); };
          // Before the page's own work that waits for the frame (see editRedrawn).
          if (window.scheduler?.postTask) {
            scheduler.postTask(drawn, { priority: 'user-blocking' });
          } else {
            const after = new MessageChannel();
            after.port1.onmessage = drawn;
            after.port2.postMessage(0);
          }
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** Navigation (fresh browser context: cold HTTP and code caches) → first drawn timeline. */
async function firstTimeline(browser, url) {
  const page = await newPage(browser);
  await instrument(page);
  await page.goto(url);
  // Waited for inside the page: Playwright's selector waits inject its
  // utility script into the page (20–25 ms of main-thread script) while it loads.
  const out = await page.evaluate(() => new Promise((done) => {
    const poll = () => (window.__firstTimeline ? done({ ms: window.__firstTimeline, longest: window.__longest }) : setTimeout(poll, 50));
    poll();
  }));
  await page.close();
  return out;
}

/**
 * Opens preset `id` from `server` in `page` ready for timed edits: its
 * result shown, the editor open and the brief simulator settled. Resolves
 * to the field an edit changes (the instance or worker count) and its value.
 */
export async function openForEdits(page, server, id) {
  await page.goto(`${server.url}#p=${id}`);
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  await openEditor(page);
  await briefSettled(page);
  const field = id.startsWith('streams/') ? '#instances' : '#workers';
  return { field, n: Number(await page.inputValue(field)) };
}

/**
 * One edit of the instance or worker count → the new result drawn, timed
 * inside the page: from the `change` event a committed number input fires
 * (what Enter or leaving the field does) to the end of the frame that shows
 * the result (a task posted from that frame's animation-frame callback runs
 * after its style, layout and paint). Timed in the page because each
 * Playwright step (press, waitForFunction, evaluate) is a DevTools round
 * trip of its own, 5–15 ms each on two cores, which the person editing never
 * waits for.
 */
export async function editRedrawn(page, field, value) {
  return page.evaluate(([sel, v]) => new Promise((done) => {
    const main = document.querySelector('main');
    const input = document.querySelector(sel);
    const before = main.dataset.request;
    let t0 = 0;
    const drawn = () => requestAnimationFrame(() => {
      const end = () => {
        const ms = performance.now() - t0;
        // Long-task entries reach their observer a task or two later.
        setTimeout(() => done({ ms, longest: window.__longest }), 100);
      };
      // The first task after the frame: the page posts work of its own
      // from animation-frame callbacks to run after the frame (the link's
      // history entry, the side panel), and a task of ordinary priority
      // may run after it or before, as Chromium's queues happen to turn.
      if (window.scheduler?.postTask) {
        scheduler.postTask(end, { priority: 'user-blocking' });
      } else {
        const after = new MessageChannel();
        after.port1.onmessage = end;
        after.port2.postMessage(0);
      }
    });
    const watch = new MutationObserver(() => {
      if (main.dataset.request !== before && main.dataset.shown === main.dataset.request) {
        watch.disconnect();
        drawn();
      }
    });
    watch.observe(main, { attributes: true, attributeFilter: ['data-request', 'data-shown'] });
    input.value = String(v);
    window.__longest = 0;
    t0 = performance.now();
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }), [field, value]);
}

/** A frame later than 1.5 frames at 60 Hz counts as dropped. */
export const DROPPED_MS = 1.5 * 1000 / 60;
/** How long each playback run is watched, ms. */
export const PLAY_WATCH_MS = 4000;

/** The preset with the largest trace (JSON length of its variants' traces), simulated in a probe page. */
async function largestPreset(browser, server, presets) {
  const probe = await newPage(browser);
  await probe.goto(`${server.url}?embed=1#p=connect/worker-joins`);
  await probe.waitForFunction(() => window.wasmBindings?.simulate, null, { timeout: 60000 });
  const sizes = await probe.evaluate(async (ids) => {
    const out = [];
    for (const id of ids) {
      const r = await window.wasmBindings.simulate(window.wasmBindings.decodeLink(`p=${id}`));
      out.push([id, r.variants.reduce((n, v) => n + JSON.stringify(v.trace).length, 0)]);
    }
    return out;
  }, presets.filter((id) => !id.startsWith('sweeps/')));  // a sweep is not one simulation
  await probe.close();
  sizes.sort((a, b) => b[1] - a[1]);
  return sizes[0];
}

/**
 * Zooms the first timeline in by three wheel steps (about 4×, where the lanes
 * are densest to draw) and puts the pointer at the zoomed window's left
 * edge, so that the playhead crosses it; resolves to the zoom factor.
 */
export async function zoomForPlayback(page) {
  await page.click('#zoom-whole');
  const span = () => page.evaluate(() => { const s = document.querySelector('svg.timeline'); return +s.dataset.to - +s.dataset.from; });
  const whole = await span();
  const svg = page.locator('svg.timeline').first();
  await svg.scrollIntoViewIfNeeded();
  const box = await svg.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + Math.min(60, box.height / 2));
  for (let i = 0; i < 3; i++) {
    const before = await span();
    await page.mouse.wheel(0, -300);
    await page.waitForFunction((b) => { const s = document.querySelector('svg.timeline'); return +s.dataset.to - +s.dataset.from < b; }, before);
  }
  const zoom = whole / await span();
  // Start at the zoomed window's left edge, so the playhead crosses it.
  await page.mouse.move(box.x + 2, box.y + 2);
  return zoom;
}

/**
 * [`zoomForPlayback`], then starts playback; resolves to the zoom factor once
 * the clock has moved.
 */
export async function startZoomedPlayback(page) {
  const zoom = await zoomForPlayback(page);
  await page.click('#play');
  await page.waitForFunction(() => +document.querySelector('#clock').dataset.t > 0);
  return zoom;
}

/**
 * The animation frames' timestamps (ms, the page's clock) for `ms` from the
 * next frame; with `press` (a selector), that element is clicked in the
 * first frame, so the frames its click costs are watched too. A `key:`
 * press goes down in the first frame and up KEY_HOLD_MS later, and the
 * watch starts again at the frame before the release, when a key's command
 * runs (Space plays on release; the frames while it is down show nothing
 * new).
 */
export function watchFrames(page, ms, press) {
  return page.evaluate(([ms, press, keyHoldMs]) => new Promise((done) => {
    const ts = [];
    let held = false;
    const frame = (t) => {
      ts.push(t);
      if (press && ts.length === 1 && press.startsWith('key:')) {
        const key = press.slice(4);
        held = true;
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        setTimeout(() => {
          ts.splice(0, ts.length - 1);
          held = false;
          document.body.dispatchEvent(new KeyboardEvent('keyup', { key, bubbles: true }));
        }, keyHoldMs);
      } else if (press && ts.length === 1) document.querySelector(press).click();
      if (held || t - ts[0] < ms) requestAnimationFrame(frame); else done(ts);
    };
    requestAnimationFrame(frame);
  }), [ms, press, KEY_HOLD_MS]);
}

/** How long a key pressed by the bench is held down, ms: a quick press
 * (typing holds a key about 100 ms). Space plays on its release. */
export const KEY_HOLD_MS = 80;

/** How long the pointer rests on Play before it is pressed, ms: shorter
 * than a person's reach for a button and press usually take. */
export const HOVER_BEFORE_PRESS_MS = 300;

/** The ways playback is started, each measured on its own: the page gets
 * ready for playback while the pointer is on Play or Space is down
 * (`web/style.css`). */
export const PLAY_PRESSES = [
  { how: 'pointer on Play, then pressed', press: '#play', hover: true },
  { how: 'Space pressed (watched from its release)', press: 'key: ', hover: false },
];

/**
 * Playback of `id` at normal speed, zoomed in as a user zooms (three wheel
 * steps over the lanes, around the first third of the run), watched for
 * PLAY_WATCH_MS from the frame Play is pressed in: frames per second and the
 * animation-frame intervals longer than DROPPED_MS. Pressing Play is part
 * of it: when playback started, a zoomed storm's lanes once took 80 ms to
 * rasterise on the layer they get while playing, and a watch that began once
 * the clock had moved saw at most the end of that. `way` is one of
 * PLAY_PRESSES.
 */
async function playback(browser, server, id, way) {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(`${server.url}#p=${id}`);
  await timelineReady(page, 120000);
  await simulationShown(page, 120000);
  const zoom = await zoomForPlayback(page);
  if (way.hover) {
    const play = await page.locator('#play').boundingBox();
    await page.mouse.move(play.x + play.width / 2, play.y + play.height / 2);
    await page.waitForTimeout(HOVER_BEFORE_PRESS_MS);
  }
  const frames = await watchFrames(page, PLAY_WATCH_MS, way.press);
  const playing = await page.locator('#play').getAttribute('aria-pressed');
  await page.close();
  if (playing !== 'true') throw new Error(`playback (${way.how}) did not start: #play aria-pressed=${playing}`);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const seconds = (frames[frames.length - 1] - frames[0]) / 1000;
  return { fps: gaps.length / seconds, dropped: gaps.filter((g) => g > DROPPED_MS).length, worst: Math.max(...gaps), zoom, playing };
}

/** The page measures; `presets` are ids, `runs` per measure. */
export async function measurePage(browser, server, presets, runs) {
  const only = (process.env.BENCH_PAGE ?? 'nav,edit,big,playback').split(',');
  const rows = [];
  const longest = [];
  if (only.includes('nav')) await navigation(browser, server, presets, runs, rows, longest);
  if (only.includes('edit')) await edits(browser, server, presets, runs, rows, longest);
  if (only.includes('big')) await bigEdits(browser, server, runs, rows, longest);
  if (longest.length) {
    // Which samples had a task over the issue's 50 ms, so that one slow
    // cold start and a slow result read differently.
    const over = longest.filter(([ms]) => ms >= 50).map(([ms, where]) => `${where} ${Math.round(ms)}`);
    const note = `${over.length} of ${longest.length} over 50 ms${over.length ? `: ${over.join(', ')}` : ''}`;
    rows.push({ measure: 'longest main-thread task during all of the above', ...stats(longest.map(([ms]) => ms)), note });
  }
  if (only.includes('playback')) {
    const [id, size] = await largestPreset(browser, server, presets);
    for (const way of PLAY_PRESSES) {
      const runsOut = [];
      for (let i = 0; i < runs; i++) runsOut.push(await playback(browser, server, id, way));
      const zoom = runsOut[0].zoom;
      const note = `${id}, ${size >= 1e6 ? `${(size / 1e6).toFixed(1)} MB` : `${(size / 1e3).toFixed(0)} KB`} of trace JSON, zoomed ${zoom.toFixed(1)}×, watched ${PLAY_WATCH_MS / 1000} s from pressing Play`;
      rows.push({ measure: `playback of the largest preset, ${way.how}: frames per second (${note})`, unit: 'fps', ...stats(runsOut.map((r) => r.fps)) });
      rows.push({ measure: `playback, ${way.how}: frames later than ${DROPPED_MS.toFixed(1)} ms (dropped)`, unit: '', ...stats(runsOut.map((r) => r.dropped)) });
      rows.push({ measure: `playback, ${way.how}: longest frame interval`, ...stats(runsOut.map((r) => r.worst)) });
    }
  }
  return rows;
}

/** Navigation → first timeline: every preset link, and one scenario link. */
async function navigation(browser, server, presets, runs, rows, longest) {
  // The scenario link's scenario is parsed by the simulator before it simulates.
  const nav = [];
  for (const id of presets) {
    for (let i = 0; i < runs; i++) {
      const r = await firstTimeline(browser, `${server.url}#p=${id}`);
      nav.push(r.ms);
      longest.push([r.longest, `load ${id}`]);
    }
  }
  rows.push({ measure: 'navigation → first timeline painted, preset links (cold cache)', ...stats(nav) });
  const fragment = await encodeLinkOf(browser, server, 'p=connect/worker-joins');
  const navLink = [];
  for (let i = 0; i < runs; i++) {
    const r = await firstTimeline(browser, `${server.url}#${fragment}`);
    navLink.push(r.ms);
    longest.push([r.longest, 'load #s=']);
  }
  rows.push({ measure: 'navigation → first timeline painted, #s= scenario link (cold cache)', ...stats(navLink) });
}

/** Edit → redrawn timeline: the worker or instance count, up and down again. */
async function edits(browser, server, presets, runs, rows, longest) {
  const edits = [];
  for (const id of presets) {
    const page = await newPage(browser);
    await instrument(page);
    const { field, n } = await openForEdits(page, server, id);
    for (let i = 0; i < runs; i++) {
      const r = await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n);
      edits.push(r.ms);
      longest.push([r.longest, `edit ${id}`]);
    }
    await page.close();
  }
  rows.push({ measure: 'edit → redrawn timeline, every preset', ...stats(edits) });
  // Small presets simulate in about 1–3 ms in the worker (data-sim-ms).
  for (const busy of [0, 3]) rows.push(await editFloor(browser, busy, false, runs * presets.length));
  rows.push(await editFloor(browser, 3, true, runs * presets.length));
}

/** Where floor/index.html sits (see it for what it does). */
const FLOOR_DIR = new URL('./floor', import.meta.url).pathname;

/**
 * The same edit measure on a page that only round-trips a worker message
 * (answered after `busy` ms) and draws next to nothing: what no change to
 * the playground's own rendering can take off an edit on this machine.
 * `sync`: the same work in the change handler instead (no worker).
 */
async function editFloor(browser, busy, sync, n) {
  const server = await serveStatic(FLOOR_DIR);
  const page = await newPage(browser);
  try {
    await page.goto(`${server.url}?busy=${busy}${sync ? '&sync=1' : ''}`);
    await editRedrawn(page, '#workers', 4); // warm
    const ms = [];
    for (let i = 0; i < n; i++) ms.push((await editRedrawn(page, '#workers', 3 + (i % 2))).ms);
    const who = sync ? `the change handler working ${busy} ms` : `a worker answering after ${busy} ms`;
    return { measure: `edit floor: ${who}, a frame (web/tests/floor)`, ...stats(ms) };
  } finally {
    await page.close();
    await server.close();
  }
}

/**
 * 1,000 × 100,000: one edit, and two edits a frame apart (the second
 * supersedes the first while it simulates), timed from the last edit.
 */
async function bigEdits(browser, server, runs, rows, longest) {
  const big = await encodeLinkOf(browser, server, {
    version: 1, title: '1,000 workers, 100,000 tasks', seed: 1,
    connect: { workers: 1000, connectors: [{ name: 'c', tasks: 100, count: 1000 }] },
    events: [{ at_ms: 30000, type: 'worker_join' }, { at_ms: 60000, type: 'worker_crash', worker: 'worker-3' }],
  });
  const bigEdits = [];
  const superseding = [];
  {
    const page = await newPage(browser);
    await instrument(page);
    await page.goto(`${server.url}#${big}`);
    await timelineReady(page, 120000);
    await simulationShown(page, 120000);
    await openEditor(page);
    await briefSettled(page);
    for (let i = 0; i < runs; i++) {
      const r = await editRedrawn(page, '#workers', i % 2 === 0 ? 1001 : 1000);
      bigEdits.push(r.ms);
      longest.push([r.longest, 'edit 1,000 × 100,000']);
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
      longest.push([await page.evaluate(() => window.__longest), 'superseding edit 1,000 × 100,000']);
    }
    rows.push({ measure: '1,000 × 100,000: edit → redrawn', ...stats(bigEdits) });
    rows.push({ measure: '1,000 × 100,000: edit superseding a busy run → redrawn', ...stats(superseding),
      superseded: +(await page.locator('main').getAttribute('data-superseded')) });
    await page.close();
  }
}

/** The `#s=` fragment of a scenario (an object, or a link fragment to decode first), from the page's JS API. */
async function encodeLinkOf(browser, server, scenario) {
  const probe = await newPage(browser);
  await probe.goto(`${server.url}#p=connect/worker-joins`);
  await probe.waitForFunction(() => window.wasmBindings?.decodeLink);
  const fragment = await probe.evaluate((s) => window.wasmBindings.encodeLink(typeof s === 'string' ? window.wasmBindings.decodeLink(s) : s), scenario);
  await probe.close();
  return fragment;
}

/** The machine, for the record. */
export async function machine(browser) {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${os.loadavg()[0].toFixed(1)}, ${os.type()} ${os.release()}, Chromium ${browser.version()}, omnibox WebUI popup off`;
}

/** Prints the page measures as a table. */
export function printPage(rows, machineNote) {
  const w = Math.max(...rows.map((r) => r.measure.length));
  console.log(`\npage (${machineNote})`);
  console.log(`${'measure'.padEnd(w)}  median      min      max   runs`);
  for (const r of rows) {
    const unit = r.unit === undefined ? ' ms' : r.unit.padStart(3);
    const ms = (x) => `${x.toFixed(0).padStart(6)}${unit}`;
    console.log(`${r.measure.padEnd(w)}  ${ms(r.median)} ${ms(r.min)} ${ms(r.max)}  ${String(r.n).padStart(5)}${r.superseded !== undefined ? `  (${r.superseded} busy runs cut short)` : ''}${r.note ? `\n    ${r.note}` : ''}`);
  }
}
