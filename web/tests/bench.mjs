// Runs the named workloads natively (`rebalance bench --json`) and in
// WebAssembly in headless Chromium (the simulator module's `runWorkload`,
// loaded through the page's JS API `loadSimulator()`), and
// prints both figures and the WASM/native ratio per workload; then the
// page's own measures (page_bench.mjs: first timeline, edit → redraw). Not a
// test: `cargo xtask bench` runs it. Speed targets live here, never in tests.
// BENCH_ONLY=engine or BENCH_ONLY=page runs one half; BENCH_RUNS sets the
// runs per measure (default 5). The workloads run in a site built with
// `--features workloads` (BENCH_DIST_DIR; `cargo xtask bench` builds it in
// target/bench-site): the site itself holds no workloads (web/src/bench_api.rs).
// The page's measures run on the site as published (DIST_DIR).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveStatic, launchBrowser, newPage, DIST } from './harness.mjs';
import { measurePage, machine, printPage, QUIET_BROWSER_ARGS } from './page_bench.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ONLY = process.env.BENCH_ONLY ?? '';

const native = ONLY === 'page' ? [] : JSON.parse(execFileSync('cargo', [
  'run', '--quiet', '--profile', 'native', '-p', 'rebalance-cli', '--',
  'bench', '--json', '--runs', String(RUNS),
], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 }));
// `rebalance presets` prints `<id>  <title>` per line.
const presets = ONLY === 'engine' ? [] : execFileSync('cargo', [
  'run', '--quiet', '--profile', 'native', '-p', 'rebalance-cli', '--', 'presets',
], { cwd: ROOT, encoding: 'utf8' }).split('\n').map((l) => l.split(/\s+/)[0]).filter(Boolean)
  // A sweep link opens the sweep view, not a timeline.
  .filter((id) => !id.startsWith('sweeps/'));

const server = await serveStatic();
const benchServer = native.length ? await serveStatic(resolve(process.env.BENCH_DIST_DIR ?? DIST)) : null;
// Without the omnibox popup's WebUI preloading in every new window (page_bench.mjs).
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
const rows = [];
let memory = null;
let pageRows = [];
let machineNote = '';
try {
  for (const n of native) {
    // A fresh page per workload, so one workload's memory does not count for the next.
    const page = await newPage(browser);
    await page.goto(`${benchServer.url}?embed=1#p=connect/worker-joins`);
    await page.waitForFunction(() => window.wasmBindings?.loadSimulator, null, { timeout: 60000 });
    const workloads = await page.evaluate(async () => {
      window.simulator = await window.wasmBindings.loadSimulator();
      return typeof window.simulator.runWorkload === 'function';
    });
    if (!workloads) {
      throw new Error('This simulator module has no workloads: set BENCH_DIST_DIR to a site built with '
        + '`trunk build --release --features workloads` (cargo xtask bench builds one in target/bench-site).');
    }
    const before = await page.evaluate(() => window.simulator.wasmMemoryBytes());
    const wasm = await page.evaluate(([name, runs]) => window.simulator.runWorkload(name, runs), [n.name, RUNS]);
    const after = await page.evaluate(() => window.simulator.wasmMemoryBytes());
    if (n.name === 'connect-scenario-1000w-100000t') {
      memory = { before_mb: before / 2 ** 20, after_mb: after / 2 ** 20 };
    }
    rows.push({ name: n.name, native_ms: n.median_ms, wasm_ms: wasm.median_ms, ratio: wasm.median_ms / n.median_ms,
      wasm_min_ms: wasm.min_ms, wasm_max_ms: wasm.max_ms, runs: wasm.runs, wasm_memory_mb: after / 2 ** 20 });
    await page.close();
  }
  if (ONLY !== 'engine') {
    machineNote = await machine(browser);
    pageRows = await measurePage(browser, server, presets, RUNS);
  }
} finally {
  await browser.close();
  await server.close();
  await benchServer?.close();
}

const w = Math.max(0, ...rows.map((r) => r.name.length));
if (rows.length) console.log(`${'workload'.padEnd(w)}  native median  wasm median  wasm/native  wasm memory`);
for (const r of rows) {
  console.log(`${r.name.padEnd(w)}  ${r.native_ms.toFixed(2).padStart(10)} ms  ${r.wasm_ms.toFixed(2).padStart(8)} ms  ${r.ratio.toFixed(2).padStart(10)}x  ${r.wasm_memory_mb.toFixed(0).padStart(7)} MB`);
}
if (pageRows.length) printPage(pageRows, machineNote);
if (memory) {
  console.log(`WebAssembly memory around the 1,000-worker scenario: ${memory.before_mb.toFixed(0)} MB before, ${memory.after_mb.toFixed(0)} MB after (peak; linear memory never shrinks)`);
}
const out = join(ROOT, 'web/tests/results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'bench.json'), JSON.stringify({ runs: RUNS, rows, memory, machine: machineNote, page: pageRows }, null, 2));
