// The JS API (simulate, encodeLink, decodeLink) is callable from the page
// through the module Trunk emits (window.wasmBindings).
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
  const out = await page.evaluate(() => {
    const api = window.wasmBindings;
    const scenario = api.decodeLink('p=connect/worker-joins');
    const fragment = api.encodeLink(scenario);
    const again = api.decodeLink('https://example.org/playground/#' + fragment);
    const result = api.simulate(JSON.stringify(scenario));
    let error = null;
    try { api.decodeLink('s=1.z.AAAA'); } catch (e) { error = String(e); }
    let invalid = null;
    try { api.simulate({ version: 1, connect: { workers: -1 } }); } catch (e) { invalid = String(e); }
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
  assert.ok(out.invalid);
  assert.deepEqual(page.errors, []);
});
