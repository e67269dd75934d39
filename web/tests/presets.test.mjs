// Every preset in the gallery loads without console errors and shows its
// columns, and the page (WASM) says exactly what the native CLI says:
// the metric values shown equal `rebalance run <preset> --json`, and the
// traces are identical.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openAllMetrics, REPO } from './harness.mjs';

const run = promisify(execFile);
let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** `rebalance run <id> --json`, from $REBALANCE_BIN or through cargo. */
async function nativeRun(id) {
  const [cmd, args] = process.env.REBALANCE_BIN
    ? [process.env.REBALANCE_BIN, ['run', id, '--json']]
    : ['cargo', ['run', '-q', '-p', 'rebalance-cli', '--', 'run', id, '--json']];
  const { stdout } = await run(cmd, args, { cwd: REPO, maxBuffer: 1 << 30 });
  return JSON.parse(stdout);
}

/** The raw value `report::metric_rows` shows for a key, read from the native Metrics and trace. */
function nativeRaw(metrics, trace, key) {
  // The streams protocol has no rounds: its rounds read "—" and it counts target assignments.
  const targets = trace.rounds.length === 0 && (trace.target_assignments ?? []).length > 0
    ? trace.target_assignments.filter((a) => a.computed_ms >= metrics.measured_from_ms).length
    : null;
  const direct = {
    task_seconds_not_running: metrics.task_ms_not_running,
    tasks_stopped: metrics.tasks_stopped,
    tasks_started: metrics.tasks_started,
    rebalance_rounds: targets === null ? metrics.rebalance_rounds : null,
    target_assignments: targets,
    longest_task_outage: metrics.longest_task_outage?.duration_ms,
    peak_imbalance: metrics.peak_imbalance,
    duplicate_task_seconds: metrics.duplicate_task_ms,
    settled_at: metrics.settled_ms,
    // Streams rows (report::metric_rows adds them for Streams runs).
    processing_downtime: metrics.family?.streams?.processing_downtime_ms,
    restoring_seconds: metrics.family?.streams?.restoring_ms,
    records_restored: metrics.family?.streams?.records_restored,
    warmups_started: metrics.family?.streams?.warmups_started,
    warmups_promoted: metrics.family?.streams?.warmups_promoted,
    probing_rebalances: metrics.family?.streams?.probing_rebalances,
    caught_up_and_stable: metrics.family?.streams?.caught_up_and_stable_ms,
  };
  if (key in direct) return direct[key] ?? null;
  const m = /^recovery_(\d+)$/.exec(key);
  if (m) return metrics.recovery[+m[1]]?.recovered_after_ms ?? null;
  return undefined; // A metric this test does not know yet.
}

test('every preset loads, shows its columns, and matches the native CLI', async () => {
  const gallery = await newPage(browser);
  await gallery.goto(server.url);
  await gallery.waitForSelector('.gallery li.preset');
  const ids = await gallery.locator('li.preset').evaluateAll((ps) => ps.map((p) => p.dataset.preset));
  assert.ok(ids.length >= 7, ids.join(','));
  const unknown = new Set();
  for (const id of ids) {
    const page = await newPage(browser);
    await page.goto(`${server.url}#p=${id}`);
    await timelineReady(page);
    await simulationShown(page);
    await openAllMetrics(page);
    const native = await nativeRun(id);
    const columns = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => ({
      label: c.dataset.label, fingerprint: c.dataset.fingerprint, rounds: +c.dataset.rounds, end: +c.dataset.end,
      metrics: [...c.querySelectorAll('.metric')].map((m) => [m.dataset.key, m.dataset.raw]),
      lanes: c.querySelectorAll('g.lane').length,
    })));
    assert.equal(columns.length, native.variants.length, id);
    // The same simulation in WASM, through the JS API, for the traces and fingerprints.
    const wasm = await page.evaluate((id) => window.wasmBindings.simulate(window.wasmBindings.decodeLink(`p=${id}`)), id);
    columns.forEach((col, i) => {
      const nv = native.variants[i];
      assert.equal(col.label, nv.label, id);
      assert.equal(col.rounds, nv.trace.rounds.length, `${id} ${col.label}: rounds`);
      assert.equal(col.end, nv.trace.end_ms, `${id} ${col.label}: end`);
      assert.ok(col.lanes >= nv.trace.workers.length, `${id} ${col.label}: a lane per worker`);
      for (const [key, raw] of col.metrics) {
        const expected = nativeRaw(nv.metrics, nv.trace, key);
        if (expected === undefined) { unknown.add(key); continue; }
        assert.equal(raw, expected === null ? '' : String(expected), `${id} ${col.label}: ${key}`);
      }
      assert.deepEqual(wasm.variants[i].trace, nv.trace, `${id} ${col.label}: WASM and native traces differ`);
      assert.equal(col.fingerprint, wasm.variants[i].fingerprint, `${id} ${col.label}: fingerprint`);
      if (nv.fingerprint !== undefined) assert.equal(col.fingerprint, nv.fingerprint, `${id}: native fingerprint`);
    });
    assert.deepEqual(page.errors, [], id);
    await page.close();
  }
  if (unknown.size) console.log(`# metrics not compared (new keys): ${[...unknown].join(', ')}`);
  assert.deepEqual(gallery.errors, []);
});
