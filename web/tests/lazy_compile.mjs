// What a cold preset load compiles, and when (issue #13). V8 compiles a
// WebAssembly function whole, on the thread that calls it, the first time
// it is called (lazy compilation, `wasm.CompileLazy` in a trace), so the
// page's first tasks pay for every byte of every function they call, even
// a branch they never take. This prints, per phase of one load (up to the
// first render, up to the first timeline in the DOM, up to the frame that
// paints it), how many functions were compiled, their bytes, and the
// biggest of them by name. Bytes compiled is repeatable from load to load,
// where the milliseconds are not. Not a test:
//   node lazy_compile.mjs
// after a release build (DIST_DIR like the tests; LAZY_URL, default
// `#p=connect/worker-joins`; LAZY_TOP, default 15). The site's modules
// carry no names, so it builds a named copy of the page's module first:
// wasm-bindgen --keep-debug on cargo's output in target/ (the build Trunk
// just made), then wasm-opt with index.html's options and `-g`;
// LAZY_NAMED_DIST names a site whose page module already has names (to
// compare an older build).
// docs/performance.md, "Session 27".
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic, launchBrowser } from './harness.mjs';
import { pageModuleCopy } from './page_module.mjs';
import { QUIET_BROWSER_ARGS } from './page_bench.mjs';
import { recordTrace, rendererMain } from './trace.mjs';

const URL_PART = process.env.LAZY_URL ?? '#p=connect/worker-joins';
const TOP = Number(process.env.LAZY_TOP ?? 15);

function leb(bytes, at) {
  let value = 0, shift = 0, b;
  do { b = bytes[at++]; value += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
  return [value, at];
}

/** Each function's name (the name section) and body size, by function index. */
function functionsOf(bytes) {
  const names = new Map(), sizes = new Map();
  let imported = 0, at = 8;
  const str = (p) => { const [n, q] = leb(bytes, p); return [new TextDecoder().decode(bytes.subarray(q, q + n)), q + n]; };
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    const end = start + size;
    let p = start, count;
    if (id === 2) { // imports: count the functions, which come first in the index space
      [count, p] = leb(bytes, p);
      for (let i = 0; i < count; i++) {
        [, p] = str(p); [, p] = str(p);
        const kind = bytes[p++];
        if (kind === 0) { [, p] = leb(bytes, p); imported++; }
        else if (kind === 1) { p++; const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else if (kind === 2) { const flags = bytes[p++]; [, p] = leb(bytes, p); if (flags & 1) [, p] = leb(bytes, p); }
        else p += 2; // a global: its type and mutability
      }
    } else if (id === 10) {
      [count, p] = leb(bytes, p);
      for (let i = 0; i < count; i++) { const [n, q] = leb(bytes, p); sizes.set(imported + i, n); p = q + n; }
    } else if (id === 0) {
      const [section, q] = str(p);
      p = q;
      while (section === 'name' && p < end) {
        const kind = bytes[p];
        const [n, body] = leb(bytes, p + 1);
        if (kind === 1) {
          let r; [count, r] = leb(bytes, body);
          for (let i = 0; i < count; i++) { let index, name; [index, r] = leb(bytes, r); [name, r] = str(r); names.set(index, name); }
        }
        p = body + n;
      }
    }
    at = end;
  }
  return { names, sizes };
}

const named = process.env.LAZY_NAMED_DIST;
const { dir, wasm } = named
  ? { dir: named, wasm: join(named, readdirSync(named).find((f) => /^rebalance-web-.*_bg\.wasm$/.test(f))) }
  : pageModuleCopy({ names: true });
const { names, sizes } = functionsOf(readFileSync(wasm));
const server = await serveStatic(dir);
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('main') && !window.__main) { window.__main = true; performance.mark('first render'); }
      if (document.querySelector('svg.timeline path.bars')) {
        observer.disconnect();
        performance.mark('first timeline in the DOM');
        requestAnimationFrame(() => {
          const after = new MessageChannel();
          after.port1.onmessage = () => { performance.mark('painted'); window.__painted = true; };
          after.port2.postMessage(0);
        });
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const { events } = await recordTrace(page, ['devtools.timeline', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed',
    'blink.user_timing', 'toplevel', '__metadata'], async () => {
    await page.goto(server.url + URL_PART);
    await page.waitForFunction(() => window.__painted, null, { timeout: 30000 });
  });
  const main = rendererMain(events);
  const mark = (name) => events.find((e) => e.name === name && e.cat?.includes('blink.user_timing'))?.ts ?? Infinity;
  const lazy = main.filter((e) => e.name === 'wasm.CompileLazy' && e.args?.func_index !== undefined);
  let from = -Infinity;
  for (const phase of ['first render', 'first timeline in the DOM', 'painted']) {
    const to = mark(phase);
    const compiled = lazy.filter((e) => e.ts > from && e.ts <= to).map((e) => e.args.func_index);
    const bytes = compiled.reduce((sum, f) => sum + (sizes.get(f) ?? 0), 0);
    console.log(`up to ${phase}: ${compiled.length} functions, ${(bytes / 1000).toFixed(1)} KB compiled on the main thread`);
    for (const f of [...compiled].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0)).slice(0, TOP)) {
      console.log(`  ${String(sizes.get(f) ?? 0).padStart(7)} B  ${(names.get(f) ?? `function ${f}`).replace(/::h[0-9a-f]{16}$/, '').slice(0, 150)}`);
    }
    from = to;
  }
  await context.close();
} finally {
  await browser.close();
  server.close?.();
  if (!named) rmSync(dir, { recursive: true, force: true });
}
