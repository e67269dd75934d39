// The JS API (encodeLink, decodeLink, simulate, loadSimulator) is callable
// from the page through the module Trunk emits (window.wasmBindings). The
// simulator is its own module: `simulate` loads it on first use (a Promise).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('simulate, encodeLink and decodeLink work from JS', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.simulate);
  const out = await page.evaluate(async () => {
    const api = window.wasmBindings;
    const scenario = api.decodeLink('p=connect/worker-joins');
    const fragment = api.encodeLink(scenario);
    const again = api.decodeLink('https://example.org/playground/#' + fragment);
    const result = await api.simulate(JSON.stringify(scenario));
    let error = null;
    try { api.decodeLink('s=1.z.AAAA'); } catch (e) { error = String(e); }
    let invalid = null;
    try { await api.simulate({ version: 1, connect: { workers: -1 } }); } catch (e) { invalid = String(e); }
    return { title: scenario.title, fragment, same: JSON.stringify(again) === JSON.stringify(scenario), result, error, invalid };
  });
  assert.equal(out.title, 'A worker joins');
  assert.match(out.fragment, /^s=1\.[zj]\./);
  assert.ok(out.same);
  assert.deepEqual(out.result.variants.map((v) => v.label), ['eager', 'cooperative']);
  for (const v of out.result.variants) {
    assert.match(v.fingerprint, /^[0-9a-f]{16}$/);
    assert.ok(v.trace.spans.length > 0 && typeof v.metrics.tasks_stopped === 'number');
  }
  assert.match(out.error, /damaged|cut off/);
  assert.match(out.invalid, /not valid/);
  assert.deepEqual(page.errors, []);
});

test('loadSimulator gives the simulator module, whose functions are synchronous', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.loadSimulator);
  const out = await page.evaluate(async () => {
    const [a, b] = await Promise.all([window.wasmBindings.loadSimulator(), window.wasmBindings.loadSimulator()]);
    const scenario = window.wasmBindings.decodeLink('p=connect/worker-joins');
    const full = a.simulate(scenario);
    return {
      same: a === b,
      // The bench workloads are in `cargo xtask bench`'s build only (web/src/bench_api.rs).
      workloads: [typeof a.workloadNames, typeof a.runWorkload, typeof a.workloadScenario],
      fingerprints: a.simulateFingerprints(JSON.stringify(scenario)),
      expected: full.variants.map((v) => ({ label: v.label, fingerprint: v.fingerprint })),
      memory: a.wasmMemoryBytes(),
      scripts: document.querySelectorAll('script[src$="rebalance-worker.js"]').length,
    };
  });
  assert.ok(out.same, 'one module, loaded once');
  assert.equal(out.scripts, 1);
  assert.deepEqual(out.workloads, ['undefined', 'undefined', 'undefined']);
  assert.deepEqual(out.fingerprints, out.expected);
  assert.ok(out.memory > 0);
  assert.deepEqual(page.errors, []);
});
