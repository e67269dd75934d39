// What each component's render costs in an edit (issue #13): Yew renders
// components one at a time (its scheduler runs one component's view and
// the reconcile of its own DOM, then the next), so timing each render and
// naming its component splits an edit's script time by component, which a
// CPU profile cannot (every component's view and reconcile are the same
// functions there). Yew has no such hook, so this builds the page module
// against a copy of Yew 0.23 with a few lines added to
// `ComponentState::render` (each render logs its component's type name and
// milliseconds to the console), into its own target directory (a cold
// build: minutes), then edits one preset EDITS times after warm-up edits
// and prints ms and renders per edit by component (YEW_RENDERS_SEQUENCE=1:
// and one more edit's renders in order). Not a test:
//   YEW_RENDERS_PRESET=connect/rolling-restart node yew_renders.mjs
// after a release build (DIST_DIR like the tests). docs/performance.md,
// "Session 28".
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, serveStatic, launchBrowser, newPage } from './harness.mjs';
import { QUIET_BROWSER_ARGS, editRedrawn, openForEdits } from './page_bench.mjs';
import { pageModuleCopy } from './page_module.mjs';

const ID = process.env.YEW_RENDERS_PRESET ?? 'connect/rolling-restart';
const EDITS = Number(process.env.YEW_RENDERS_EDITS ?? 30);
const SEQUENCE = process.env.YEW_RENDERS_SEQUENCE === '1';

/** `text` with `anchor` replaced by `by`, or an error naming the anchor (a Yew that changed). */
function edit(text, anchor, by) {
  if (!text.includes(anchor)) throw new Error(`Yew's source no longer has ${JSON.stringify(anchor)}: update yew_renders.mjs`);
  return text.replace(anchor, by);
}

/** A copy of the locked Yew whose renders log `yew-render <component> <ms>`. */
function timedYew() {
  const meta = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1'], { cwd: REPO, maxBuffer: 1 << 28 }));
  const yew = meta.packages.find((p) => p.name === 'yew');
  if (yew.version !== '0.23.0') throw new Error(`written for Yew 0.23.0, the lock has ${yew.version}`);
  const dir = mkdtempSync(join(tmpdir(), 'yew-renders-'));
  cpSync(join(yew.manifest_path, '..'), dir, { recursive: true });
  const lifecycle = join(dir, 'src/html/component/lifecycle.rs');
  let src = readFileSync(lifecycle, 'utf8');
  src = edit(src, 'impl ComponentState {', `thread_local! {
    static RENDER_NAMES: std::cell::RefCell<std::collections::HashMap<usize, &'static str>> = Default::default();
}

impl ComponentState {`);
  src = edit(src, '        let comp_id = scope.id;\n',
    '        let comp_id = scope.id;\n        RENDER_NAMES.with(|m| m.borrow_mut().insert(comp_id, std::any::type_name::<COMP>()));\n');
  src = edit(src, `    fn render(&mut self, shared_state: &Shared<Option<ComponentState>>) {
        let view = self.inner.view();`, `    fn render(&mut self, shared_state: &Shared<Option<ComponentState>>) {
        let perf = web_sys::window().and_then(|w| w.performance());
        let t0 = perf.as_ref().map_or(0.0, |p| p.now());
        self.render_timed(shared_state);
        if let Some(p) = perf {
            let ms = p.now() - t0;
            let name = RENDER_NAMES.with(|m| m.borrow().get(&self.comp_id).copied().unwrap_or("?"));
            web_sys::console::log_1(&format!("yew-render {name} {ms:.3}").into());
        }
    }

    fn render_timed(&mut self, shared_state: &Shared<Option<ComponentState>>) {
        let view = self.inner.view();`);
  writeFileSync(lifecycle, src);
  const manifest = join(dir, 'Cargo.toml');
  writeFileSync(manifest, edit(readFileSync(manifest, 'utf8'), '    "Window",\n', '    "Window",\n    "Performance",\n    "console",\n'));
  return dir;
}

const yew = timedYew();
const target = join(REPO, 'target/yew-renders');
console.log(`building the page module against ${yew} (into ${target})`);
// The patch rewrites Cargo.lock's entry for Yew: the lock is put back.
const lock = readFileSync(join(REPO, 'Cargo.lock'));
try {
  execFileSync('cargo', ['build', '--offline', '-p', 'rebalance-web', '--bin', 'rebalance-web', '--target', 'wasm32-unknown-unknown',
    '--profile', 'page', '--no-default-features', '--config', `patch.crates-io.yew.path=${JSON.stringify(yew)}`],
  { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CARGO_TARGET_DIR: target } });
} finally {
  writeFileSync(join(REPO, 'Cargo.lock'), lock);
}
const { dir } = pageModuleCopy({ wasm: join(target, 'wasm32-unknown-unknown/page/rebalance-web.wasm') });
const server = await serveStatic(dir);
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
try {
  const page = await newPage(browser, { width: 1366, height: 800 });
  const renders = [];
  let counting = false;
  page.on('console', (m) => {
    const [tag, name, ms] = m.text().split(' ');
    if (counting && tag === 'yew-render') renders.push([name, Number(ms)]);
  });
  const { field, n } = await openForEdits(page, server, ID);
  for (let i = 0; i < 6; i++) await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n);
  counting = true;
  for (let i = 0; i < EDITS; i++) await editRedrawn(page, field, i % 2 === 0 ? n + 1 : n);
  await page.waitForTimeout(300);
  counting = false;
  if (SEQUENCE) {
    // One more edit's renders in the order Yew ran them (who renders twice, and after whom).
    const from = renders.length;
    counting = true;
    await editRedrawn(page, field, EDITS % 2 === 0 ? n + 1 : n);
    await page.waitForTimeout(300);
    counting = false;
    console.log('one edit, in order:');
    for (const [name, ms] of renders.splice(from)) console.log(`  ${ms.toFixed(2).padStart(6)} ms  ${name.replace(/^rebalance_web::components::/, '')}`);
  }
  const by = new Map();
  for (const [name, ms] of renders) {
    const c = by.get(name) ?? { renders: 0, ms: 0 };
    c.renders++;
    c.ms += ms;
    by.set(name, c);
  }
  console.log(`${ID}: ${EDITS} edits, Yew renders per edit (ms, renders), by component:`);
  let total = 0;
  for (const [name, c] of [...by].sort((a, b) => b[1].ms - a[1].ms)) {
    total += c.ms;
    console.log(`  ${(c.ms / EDITS).toFixed(2).padStart(6)} ms ${(c.renders / EDITS).toFixed(1).padStart(5)}  ${name.replace(/^rebalance_web::components::/, '')}`);
  }
  console.log(`  ${(total / EDITS).toFixed(2).padStart(6)} ms in all`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(yew, { recursive: true, force: true });
}
