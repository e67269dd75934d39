// The first page: a scenario from the link, simulated, drawn as timelines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, screenshot } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const timelineReady = (page) => page.waitForSelector('svg.timeline rect.bar', { timeout: 20000 });

test('the default scenario renders a timeline per compared protocol', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await timelineReady(page);
  const columns = await page.locator('article.column h2').allTextContents();
  assert.deepEqual(columns, ['eager', 'cooperative']);
  assert.ok(await page.locator('svg.timeline').first().locator('rect.bar[data-state="running"]').count() > 0);
  // Lanes carry worker names; the joining worker shows up as worker-4.
  const lanes = await page.locator('svg.timeline').first().locator('.lane-label').allTextContents();
  assert.ok(lanes.includes('worker-1') && lanes.includes('worker-4'), lanes.join(','));
  // The address bar became a permalink.
  assert.match(new URL(page.url()).hash, /^#s=1\.[zj]\./);
  await screenshot(page, 'default-1280x800');
  assert.deepEqual(page.errors, []);
});

test('an edit rewrites the link, and the link reproduces the same timeline', async () => {
  const page = await newPage(browser);
  await page.goto(server.url);
  await timelineReady(page);
  const before = new URL(page.url()).hash;
  await page.fill('#workers', '5');
  await page.press('#workers', 'Enter');
  await page.waitForFunction((h) => location.hash !== h, before);
  const link = page.url();
  const svg = await page.locator('svg.timeline').first().innerHTML();
  assert.ok((await page.locator('svg.timeline').first().locator('.lane-label').allTextContents()).includes('worker-5'));

  const fresh = await newPage(browser);
  await fresh.goto(link);
  await timelineReady(fresh);
  assert.equal(await fresh.locator('#workers').inputValue(), '5');
  assert.equal(await fresh.locator('svg.timeline').first().innerHTML(), svg);
  assert.deepEqual([...page.errors, ...fresh.errors], []);
});

test('a garbage link shows a readable message and the default scenario', async () => {
  for (const bad of ['#s=1.z.%%%garbage', '#s=1.z.AAAA', '#s=9.z.AAAA', '#nonsense', '#p=no/such-preset']) {
    const page = await newPage(browser);
    await page.goto(server.url + bad);
    await timelineReady(page);
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /link|preset/i, `${bad}: ${notice}`);
    assert.ok(notice.length > 30, notice);
    assert.deepEqual(page.errors, [], bad);
    if (bad === '#s=1.z.AAAA') await screenshot(page, 'bad-link');
  }
});

test('the page is readable on a phone', async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(server.url);
  await timelineReady(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await screenshot(page, 'default-390x844');
  assert.deepEqual(page.errors, []);
});
