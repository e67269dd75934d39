// Measures what the worst links cost in the page's simulator (docs/
// performance.md, "What a link can cost"): each scenario file given is
// simulated by the simulator module (`simulateFingerprints`, the engine's
// `run::run` in WebAssembly) in a fresh page, timed with the wall clock,
// with the module's linear memory after the run (it only grows, so it is
// the peak). Not a test. Usage:
//   DIST_DIR=$PWD/../../dist node worst_case.mjs FILE.json…
import { readFile } from 'node:fs/promises';
import { serveStatic, launchBrowser, newPage } from './harness.mjs';

const server = await serveStatic();
const browser = await launchBrowser();
try {
  for (const file of process.argv.slice(2)) {
    const scenario = JSON.parse(await readFile(file, 'utf8'));
    const page = await newPage(browser);
    await page.goto(`${server.url}?embed=1#p=connect/worker-joins`);
    await page.waitForFunction(() => window.wasmBindings?.loadSimulator, null, { timeout: 60000 });
    await page.evaluate(async () => { window.simulator = await window.wasmBindings.loadSimulator(); });
    const out = await page.evaluate((s) => {
      const before = window.simulator.wasmMemoryBytes();
      const t0 = performance.now();
      const fingerprints = window.simulator.simulateFingerprints(s);
      return { ms: performance.now() - t0, before_mb: before / 2 ** 20,
        after_mb: window.simulator.wasmMemoryBytes() / 2 ** 20, variants: fingerprints.length };
    }, scenario);
    console.log(`${file}  ${(out.ms / 1000).toFixed(1)} s  ${out.after_mb.toFixed(0)} MB wasm memory (${out.before_mb.toFixed(0)} MB before)  ${out.variants} variants`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
