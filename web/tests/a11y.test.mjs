// Accessibility and a clean console (issue #11): axe-core (npm, pinned in
// package.json) finds no serious or critical violations on the gallery, a
// Connect preset, a Streams preset and the open editor; every dialog takes
// focus, keeps Tab inside, closes on Esc and gives focus back; a load logs
// no warnings or errors, from the page or its Web Worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { serveStatic, launchBrowser, newPage, timelineReady, simulationShown, openEditor } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Serious and critical axe violations on the page as it is now. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

for (const [name, path, prepare] of [
  ['the gallery', '', async (page) => page.waitForSelector('.gallery li.preset')],
  ['a Connect preset', '#p=connect/worker-dies', async (page) => { await timelineReady(page); await simulationShown(page); }],
  ['a Streams preset', '#p=streams/stateful-scale-out', async (page) => { await timelineReady(page); await simulationShown(page); }],
  ['the open editor', '#p=streams/stateful-scale-out', async (page) => { await timelineReady(page); await simulationShown(page); await openEditor(page); }],
  ['the open Connect editor', '#p=connect/worker-joins', async (page) => { await timelineReady(page); await simulationShown(page); await openEditor(page); }],
]) {
  test(`axe-core: no serious or critical violations on ${name}`, async () => {
    const page = await newPage(browser, { width: 1366, height: 800 });
    await page.goto(server.url + path);
    await prepare(page);
    const found = await violations(page);
    assert.deepEqual(found, [], JSON.stringify(found, null, 1));
    assert.deepEqual(page.errors, []);
  });
}

test('dialogs take focus, trap Tab, close on Esc and give focus back', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  for (const [opener, dialog] of [['#embed-button', '.dialog.embed'], ['.help-button', '.dialog.help']]) {
    await page.focus(opener);
    await page.click(opener);
    await page.waitForSelector(dialog);
    const inside = () => page.evaluate((d) => !!document.activeElement?.closest(d), dialog);
    assert.ok(await inside(), `${dialog} took focus`);
    // Tab and Shift+Tab never leave it.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      assert.ok(await inside(), `${dialog}: focus left after ${i + 1} presses`);
    }
    await page.keyboard.press('Escape');
    await page.waitForSelector(dialog, { state: 'detached' });
    assert.ok(await page.evaluate((o) => document.activeElement === document.querySelector(o), opener),
      `focus back on ${opener}, not ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`);
  }
  // Esc also closes the embed dialog while its snippet has focus.
  await page.click('#embed-button');
  await page.focus('#embed-snippet');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.dialog.embed', { state: 'detached' });
  assert.deepEqual(page.errors, []);
});

test('a load logs no warnings or errors (page and Web Worker)', async () => {
  for (const path of ['', '#p=connect/worker-dies', '#p=streams/stateful-scale-out', '?embed=1#p=connect/worker-joins']) {
    const page = await newPage(browser);
    const logged = [];
    const record = (where) => (m) => { if (m.type() === 'warning' || m.type() === 'error') logged.push(`${where} ${m.type()}: ${m.text()}`); };
    page.on('console', record('page'));
    page.on('worker', (w) => w.on('console', record('worker')));
    await page.goto(server.url + path);
    if (path.includes('#')) {
      await timelineReady(page);
      await simulationShown(page);
    } else {
      await page.waitForSelector('.gallery li.preset');
    }
    await page.waitForSelector('main[data-worker="ready"]');
    // Chromium reports an unused preload a few seconds after load.
    await page.waitForTimeout(3500);
    assert.deepEqual(logged, [], path);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
