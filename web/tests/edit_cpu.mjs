// Where a warm edit's script time goes, by function (issue #13): a sampled
// CPU profile (the DevTools protocol's `Profiler`) of EDIT_CPU_EDITS edits
// of one preset, after warm-up edits, summed by function: self time and
// total (inclusive) time per edit, and with EDIT_CPU_TREE (a regular
// expression) the call tree below the functions it names. The site's
// modules carry no names, so it first builds a copy whose page module has
// them (page_module.mjs, from the build Trunk just made);
// EDIT_CPU_NAMED_DIST names a site that has them already. Not a test:
//   EDIT_CPU_PRESET=connect/rolling-restart node edit_cpu.mjs
// after a release build (DIST_DIR like the tests). docs/performance.md,
// "Session 28".
import { rmSync } from 'node:fs';
import { serveStatic, launchBrowser, newPage } from './harness.mjs';
import { QUIET_BROWSER_ARGS, editRedrawn, openForEdits } from './page_bench.mjs';
import { pageModuleCopy } from './page_module.mjs';

const ID = process.env.EDIT_CPU_PRESET ?? 'connect/rolling-restart';
const EDITS = Number(process.env.EDIT_CPU_EDITS ?? 30);
const TOP = Number(process.env.EDIT_CPU_TOP ?? 40);

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
  const self = new Map(), total = new Map();
  const nameOf = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'anonymous'})`;
  for (const [id, us] of dt) {
    const n = byId.get(id);
    self.set(nameOf(n), (self.get(nameOf(n)) ?? 0) + us);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(byId.get(at));
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + us);
    }
  }
  // A top-down tree below the frames whose name matches EDIT_CPU_TREE,
  // merged by name, down to 0.2 ms an edit.
  const tree = (re, edits) => {
    const incl = new Map();
    const sum = (id) => {
      const n = byId.get(id);
      let t = dt.get(id) ?? 0;
      for (const c of n.children ?? []) t += sum(c);
      incl.set(id, t);
      return t;
    };
    for (const n of profile.nodes) if (!parent.has(n.id)) sum(n.id);
    const print = (ids, depth) => {
      const merged = new Map();
      for (const id of ids) {
        const name = nameOf(byId.get(id));
        const m = merged.get(name) ?? { us: 0, kids: [] };
        m.us += incl.get(id);
        m.kids.push(...(byId.get(id).children ?? []));
        merged.set(name, m);
      }
      for (const [name, m] of [...merged].sort((a, b) => b[1].us - a[1].us)) {
        if (m.us / 1000 / edits < 0.2) continue;
        console.log(`${'  '.repeat(depth)}${(m.us / 1000 / edits).toFixed(2)} ${name.replace(/::h[0-9a-f]{16}$/, '').slice(0, 140)}`);
        if (depth < 30) print(m.kids, depth + 1);
      }
    };
    const roots = profile.nodes.filter((n) => re.test(nameOf(n)) && ![...ancestors(n.id)].some((a) => re.test(nameOf(byId.get(a)))));
    print(roots.map((n) => n.id), 0);
  };
  function* ancestors(id) { for (let at = parent.get(id); at !== undefined; at = parent.get(at)) yield at; }
  return { self, total, tree };
}

const named = process.env.EDIT_CPU_NAMED_DIST;
const dir = named ?? pageModuleCopy({ names: true }).dir;
const server = await serveStatic(dir);
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
try {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const { field, n } = await openForEdits(page, server, ID);
  for (let i = 0; i < 6; i++) await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const ms = [];
  for (let i = 0; i < EDITS; i++) ms.push((await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n)).ms);
  const { profile } = await cdp.send('Profiler.stop');
  ms.sort((a, b) => a - b);
  console.log(`${ID}: ${EDITS} edits, median ${ms[Math.floor((ms.length - 1) / 2)].toFixed(1)} ms`);
  const { self, total, tree } = summarise(profile);
  const show = (m, title) => {
    console.log(`\n${title} (ms per edit)`);
    for (const [name, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`  ${(us / 1000 / EDITS).toFixed(2).padStart(7)}  ${name.slice(0, 150)}`);
    }
  };
  show(self, 'self');
  show(total, 'total');
  if (process.env.EDIT_CPU_TREE) {
    console.log(`\ntree below /${process.env.EDIT_CPU_TREE}/ (ms per edit)`);
    tree(new RegExp(process.env.EDIT_CPU_TREE), EDITS);
  }
} finally {
  await browser.close();
  await server.close();
  if (!named) rmSync(dir, { recursive: true, force: true });
}
