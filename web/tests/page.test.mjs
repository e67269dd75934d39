// The page: a scenario from the link, simulated in a Web Worker, drawn as
// one timeline column per compared protocol; the gallery as the landing view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, screenshot, timelineReady, simulationShown, openEditor, openAllMetrics } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the default preset renders a timeline per compared protocol', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  const columns = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.label));
  assert.deepEqual(columns, ['eager', 'cooperative']);
  assert.ok(await page.locator('svg.timeline').first().locator('path.bars[data-state="running"]').count() > 0);
  // Lanes carry worker names; the joining worker shows up as worker-4, and unassigned work has its own lane.
  const lanes = await page.locator('svg.timeline').first().locator('g.lane').evaluateAll((ls) => ls.map((l) => l.dataset.lane));
  assert.ok(lanes.includes('worker-1') && lanes.includes('worker-4') && lanes.includes('unassigned'), lanes.join(','));
  // Rounds and the scenario's event are markers; the event is labelled.
  assert.ok(await page.locator('svg.timeline').first().locator('g.round').count() >= 1);
  assert.equal(await page.locator('svg.timeline').first().locator('.event-label').first().textContent(), 'a worker joins');
  // A preset's first result is the one the site ships (shipped.test.mjs);
  // the page's module has no simulator.
  assert.equal(await page.locator('main').getAttribute('data-ran-in'), 'site-build');
  await page.waitForSelector('main[data-worker="ready"]');
  // An unedited preset keeps its short permalink.
  assert.equal(new URL(page.url()).hash, '#p=connect/worker-joins');
  await screenshot(page, 'default-1280x800');
  assert.deepEqual(page.errors, []);
});

test('without a fragment the page opens on the preset gallery; choosing one pushes #p=<id>', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await page.waitForSelector('.gallery li.preset');
  const first = page.locator('li.preset').first();
  const id = await first.getAttribute('data-preset');
  assert.ok((await first.locator('h3').textContent()).length > 3);
  assert.ok((await first.locator('.summary').textContent()).endsWith('.'));
  await screenshot(page, 'gallery-1280x800');
  await first.locator('a').click();
  await timelineReady(page);
  assert.equal(new URL(page.url()).hash, `#p=${id}`);
  // pushState: Back returns to the gallery.
  await page.goBack();
  await page.waitForSelector('.gallery li.preset');
  assert.equal(new URL(page.url()).hash, '');
  // The Presets button reaches the gallery from a scenario, and back.
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  await page.click('#presets-button');
  await page.waitForSelector('.gallery li.preset.current[data-preset="connect/worker-dies"]');
  await page.click('.gallery .back');
  await timelineReady(page);
  assert.deepEqual(page.errors, []);
});

test('an edit rewrites the link, and the link reproduces the same view', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  // Edit only once the page has settled on its first simulation: one CI run
  // lost this edit when it was typed while the first result was arriving.
  await simulationShown(page);
  await openEditor(page);
  await page.fill('#workers', '5');
  await page.press('#workers', 'Enter');
  await page.waitForFunction(() => location.hash.startsWith('#s=1.'));
  await simulationShown(page);
  const link = page.url();
  const lanes = await page.locator('svg.timeline').first().locator('g.lane').evaluateAll((ls) => ls.map((l) => l.dataset.lane));
  assert.ok(lanes.includes('worker-5'), lanes.join(','));
  const body = await page.locator('svg.timeline .timeline-body').first().innerHTML();
  await openAllMetrics(page);
  const metrics = await page.locator('.metric').evaluateAll((ms) => ms.map((m) => m.dataset.raw));
  const fingerprints = await page.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.fingerprint));

  const fresh = await newPage(browser);
  await fresh.goto(link);
  await timelineReady(fresh);
  await openEditor(fresh);
  assert.equal(await fresh.locator('#workers').inputValue(), '5');
  assert.equal(await fresh.locator('svg.timeline .timeline-body').first().innerHTML(), body);
  await openAllMetrics(fresh);
  assert.deepEqual(await fresh.locator('.metric').evaluateAll((ms) => ms.map((m) => m.dataset.raw)), metrics);
  assert.deepEqual(await fresh.locator('article.column').evaluateAll((cs) => cs.map((c) => c.dataset.fingerprint)), fingerprints);
  assert.equal(fresh.url(), link);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
});

test('a bad, truncated, oversized or hostile link shows a readable message and the gallery', async () => {
  const huge = '#s=1.z.' + 'A'.repeat(20000);
  for (const bad of ['#s=1.z.%%%garbage', '#s=1.z.AAAA', '#s=9.z.AAAA', '#nonsense', '#p=no/such-preset', '#s=1.j.', huge,
    // Valid base64url JSON, but 100,000 workers: refused by validation, never simulated.
    '#s=1.j.' + Buffer.from(JSON.stringify({ version: 1, connect: { workers: 100000 } })).toString('base64url')]) {
    const page = await newPage(browser);
    await page.goto(server.url + bad);
    await page.waitForSelector('#notice');
    await page.waitForSelector('.gallery li.preset');
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /link|preset/i, `${bad.slice(0, 40)}: ${notice}`);
    assert.ok(notice.length > 30, notice);
    // The bad link stays in the address bar so it can be seen and fixed.
    assert.equal(new URL(page.url()).hash.length > 1, true);
    assert.deepEqual(page.errors, [], bad.slice(0, 40));
    if (bad === '#s=1.z.AAAA') await screenshot(page, 'bad-link');
    await page.close();
  }
});

test('the page is readable on a phone', async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(server.url + '#p=connect/worker-joins');
  await timelineReady(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  // The timeline is drawn at the phone's width, not scaled down from a desktop one.
  const svgWidth = await page.locator('svg.timeline').first().evaluate((s) => s.viewBox.baseVal.width);
  assert.ok(svgWidth <= 390, `timeline laid out ${svgWidth} wide`);
  await screenshot(page, 'default-390x844');
  const gallery = await newPage(browser, { width: 390, height: 844 });
  await gallery.goto(server.url);
  await gallery.waitForSelector('.gallery li.preset');
  await screenshot(gallery, 'gallery-390x844');
  assert.deepEqual([...page.errors, ...gallery.errors], []);
});

test('dark mode follows the system', async () => {
  const page = await newPage(browser);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(server.url + '#p=connect/worker-bounce');
  await timelineReady(page);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(21, 24, 28)');
  // State colours stay the colour-blind-safe ones in both schemes.
  const running = await page.locator('path.bars.running').first().evaluate((p) => getComputedStyle(p).fill);
  assert.equal(running, 'rgb(0, 158, 115)');
  await screenshot(page, 'dark-1280x800');
  assert.deepEqual(page.errors, []);
});
