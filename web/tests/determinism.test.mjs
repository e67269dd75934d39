// Determinism at scale: the large workload scenarios give the same trace
// fingerprints in WebAssembly (the page's JS API) as natively
// (`rebalance run --fingerprints`). The presets are compared in presets.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic, launchBrowser, newPage } from './harness.mjs';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const WORKLOADS = ['connect-rolling-restart-100w-10000t', 'connect-scenario-1000w-100000t', 'streams-scaleout-1h'];

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

function nativeFingerprints(scenarioJson) {
  const dir = mkdtempSync(join(tmpdir(), 'rebalance-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, scenarioJson);
  // The debug CLI that `cargo test` already built (about 10 s for the largest workload).
  const out = execFileSync('cargo', ['run', '--quiet', '-p', 'rebalance-cli', '--', 'run', file, '--fingerprints'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  return out.trim().split('\n').map((line) => {
    const [fingerprint, ...label] = line.split('  ');
    return { label: label.join('  '), fingerprint };
  });
}

for (const name of WORKLOADS) {
  test(`${name}: WebAssembly and native traces are identical`, { timeout: 600000 }, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}?embed=1#p=connect/worker-joins`);
    await page.waitForFunction(() => window.wasmBindings?.loadSimulator, null, { timeout: 60000 });
    await page.evaluate(async () => { window.simulator = await window.wasmBindings.loadSimulator(); });
    // The workloads are not in the site's simulator module (web/src/bench_api.rs).
    const scenario = execFileSync('cargo', ['run', '--quiet', '-p', 'rebalance-cli', '--', 'bench', '--scenario', name],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
    const wasm = await page.evaluate((s) => window.simulator.simulateFingerprints(s), scenario);
    assert.deepEqual(wasm, nativeFingerprints(scenario));
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
