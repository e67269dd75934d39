// Shared set-up for the browser tests: a static server for dist/ on a free
// loopback port, and Debian's headless Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml',
};

export const DIST = resolve(process.env.DIST_DIR ?? new URL('../../dist', import.meta.url).pathname);
export const SCREENSHOTS = resolve(new URL('./screenshots', import.meta.url).pathname);
/** The repository root (for the native CLI). */
export const REPO = resolve(new URL('../..', import.meta.url).pathname);

/** Serves `root` on 127.0.0.1 with an OS-chosen port; resolves to { url, close }. */
export async function serveStatic(root = DIST, mounts = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let base = root;
    let rel = path;
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (path.startsWith(prefix)) { base = dir; rel = path.slice(prefix.length - 1); }
    }
    const file = normalize(join(base, rel.endsWith('/') ? rel + 'index.html' : rel));
    if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  // close() also ends the browser's open sockets: a kept-alive or
  // preconnected socket that has not sent a request is not "idle" to Node,
  // and server.close() would wait for it (the sub-path test hung on one).
  const close = () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); });
  return { url: `http://127.0.0.1:${port}/`, close };
}

/** Debian's Chromium, headless, with the flags this closed network needs (and `extraArgs`). */
export async function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** A page that records console errors and uncaught exceptions into `errors`. */
export async function newPage(browser, viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  return page;
}

/**
 * Loads `url` as a new document, even where the page is already on it but
 * for the fragment (where `goto` would only move to the fragment). Not
 * `goto` then `reload`: in one CI run that reload, issued while the page
 * was still starting up, failed with `net::ERR_ABORTED` (not reproduced
 * here in 50 tries); a navigation from `about:blank` reloads nothing.
 */
export async function openFresh(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
}

/**
 * Saves a screenshot for people to look at (git-ignored folder). The story's
 * lines are laid out only near the viewport (`content-visibility: auto`);
 * a full-page capture does not scroll, so they are drawn for it as they
 * would be on reaching them.
 */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const shown = await page.addStyleTag({ content: '.story-list > li { content-visibility: visible !important; }' });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await shown.evaluate((el) => el.remove());
}

/** Waits until the page shows a simulated timeline. */
export async function timelineReady(page, timeout = 30000) {
  await page.waitForSelector('svg.timeline path.bars', { timeout });
}

/** Unfolds the scenario editor. */
export async function openEditor(page) {
  await page.evaluate(() => { document.getElementById('editor').open = true; });
  // Its body is built when it is first unfolded (the `toggle` event).
  await page.waitForSelector('#editor .editor-body');
}

/** Unfolds every column's "All metrics" (built when first unfolded, like the editor). */
export async function openAllMetrics(page) {
  const columns = await page.locator('article.column').count();
  await page.evaluate(() => document.querySelectorAll('article.column details.all-metrics').forEach((d) => { d.open = true; }));
  await page.waitForFunction((n) => document.querySelectorAll('article.column .all-metrics .metric').length > 0
    && [...document.querySelectorAll('article.column .all-metrics')].filter((d) => d.querySelector('.metric')).length === n, columns);
}

/**
 * Waits until the newest simulation request is the one shown and the address
 * bar has it (the page writes the link after the frame that shows the result:
 * `<html data-link-pending>` until then).
 */
export async function simulationShown(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const m = document.querySelector('main');
    return m && m.dataset.request !== '0' && m.dataset.shown === m.dataset.request
      && !document.documentElement.hasAttribute('data-link-pending');
  }, null, { timeout });
}

/**
 * Waits until the page has settled where it simulates an edit: the
 * simulator's module loaded on the main thread for brief edits
 * (`<main data-brief="ready">`, web/src/worker/brief_sim.rs) or found
 * unavailable. The module loads once the worker has answered and the editor
 * is open (open it first), and warms up, and then the page draws the
 * comparison once off screen (`data-warm`, web/src/components/warm_up.rs);
 * a person's first edit comes seconds after opening the editor. A build
 * without brief edits has no `data-brief` and passes at once.
 */
export async function briefSettled(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const { brief, warm } = document.querySelector('main')?.dataset ?? {};
    // Ready, and the comparison's off-screen warm-up (components::warm_up)
    // over (a build without one has no data-warm), so that its tasks do not
    // delay the first edit.
    return brief === undefined || brief === 'unavailable'
      || (brief === 'ready' && warm !== 'off' && warm !== 'running');
  }, null, { timeout });
}
