// A copy of the built site (DIST) with its page module rebuilt from a
// given cargo output, for the profiling tools (lazy_compile.mjs,
// edit_cpu.mjs, yew_renders.mjs): wasm-bindgen, then wasm-opt with
// index.html's options, as Trunk builds it. With `names`, the module keeps
// its function names (wasm-bindgen --keep-debug, wasm-opt -g), so that a
// trace or a CPU profile names Rust functions.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, REPO } from './harness.mjs';

/** The page's cargo output as the last build left it in target/. */
export const BUILT_PAGE = join(REPO, 'target/wasm32-unknown-unknown/page/rebalance-web.wasm');

/** Copies DIST to a new directory whose page module is built from `wasm`; resolves to `{ dir, wasm }`. */
export function pageModuleCopy({ wasm = BUILT_PAGE, names = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'page-module-'));
  cpSync(DIST, dir, { recursive: true });
  const page = readdirSync(dir).find((f) => /^rebalance-web-.*_bg\.wasm$/.test(f));
  const glue = readdirSync(dir).find((f) => /^rebalance-web-[0-9a-f]+\.js$/.test(f));
  const bindgen = join(dir, 'bindgen');
  execFileSync('wasm-bindgen', ['--target', 'web', ...(names ? ['--keep-debug'] : []), '--out-dir', bindgen, wasm]);
  const html = readFileSync(join(REPO, 'index.html'), 'utf8');
  const params = html.match(/data-bin="rebalance-web"[^>]*data-wasm-opt-params="([^"]*)"/)[1].split(/\s+/);
  execFileSync(join(REPO, 'web/tests/node_modules/.bin/wasm-opt'),
    ['-Oz', ...(names ? ['-g'] : []), ...params, '--enable-sign-ext', '--enable-mutable-globals',
      join(bindgen, 'rebalance-web_bg.wasm'), '-o', join(dir, page)]);
  // Its own bindings too: a module built from other sources (yew_renders.mjs)
  // may import other functions. For the same build they are Trunk's file.
  copyFileSync(join(bindgen, 'rebalance-web.js'), join(dir, glue));
  return { dir, wasm: join(dir, page) };
}
