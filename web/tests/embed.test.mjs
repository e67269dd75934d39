// Embedding: ?embed=1 has no editor, a compact header and an "Open in
// playground" link, and posts its height to the host; web/embed-example.html
// shows two embeds sized by those messages; the site works from a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, screenshot, timelineReady, DIST } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('embed mode: no editor, compact header, a way back to the playground', async () => {
  const page = await newPage(browser, { width: 960, height: 700 });
  await page.goto(server.url + '?embed=1#p=connect/worker-bounce');
  await timelineReady(page);
  assert.equal(await page.locator('#editor').count(), 0);
  assert.equal(await page.locator('#presets-button').count(), 0);
  assert.ok((await page.locator('#scenario-title').textContent()).length > 3);
  const open = page.locator('#open-in-playground');
  const href = await open.getAttribute('href');
  assert.ok(href.endsWith('#p=connect/worker-bounce') && !href.includes('embed'), href);
  assert.equal(await open.getAttribute('target'), '_blank');
  // Not playing unless asked to.
  assert.equal(await page.locator('#clock').getAttribute('data-t'), '0');
  await screenshot(page, 'embed-960x700');
  assert.deepEqual(page.errors, []);
});

test('embed mode with autoplay plays; a bad link in an embed shows the message and the default preset', async () => {
  const page = await newPage(browser, { width: 800, height: 600 });
  await page.goto(server.url + '?embed=1&autoplay=1#p=connect/worker-joins');
  await timelineReady(page);
  await page.waitForFunction(() => +document.querySelector('#clock').dataset.t > 0);
  const bad = await newPage(browser, { width: 800, height: 600 });
  await bad.goto(server.url + '?embed=1#s=1.z.AAAA');
  await timelineReady(bad);
  assert.match(await bad.locator('#notice').textContent(), /link/);
  assert.equal(await bad.locator('#scenario-title').textContent(), 'A worker joins');
  assert.deepEqual([...page.errors, ...bad.errors], []);
});

test('embed-example.html shows both iframes, sized by the height they post', async () => {
  const page = await newPage(browser, { width: 1100, height: 900 });
  const heights = [];
  await page.exposeFunction('recordHeight', (h) => heights.push(h));
  await page.addInitScript(() => {
    window.addEventListener('message', (e) => {
      if (e.data?.type === 'rebalance-playground:height') window.recordHeight(e.data.height);
    });
  });
  await page.goto(server.url + 'embed-example.html');
  const frames = page.locator('iframe');
  assert.equal(await frames.count(), 2);
  for (const id of ['embed-joins', 'embed-bounce']) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => document.getElementById(id).dataset.reportedHeight, id, { timeout: 30000 });
    const frame = page.frameLocator(`#${id}`);
    await frame.locator('svg.timeline path.bars').first().waitFor();
    assert.equal(await frame.locator('#editor').count(), 0);
    // The iframe is as tall as the embedded page's content.
    const reported = +(await page.locator(`#${id}`).getAttribute('data-reported-height'));
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(Math.abs(box.height - reported) <= 3, `${id}: ${box.height} vs ${reported}`);
    const content = await frame.locator('main').evaluate((m) => m.offsetHeight);
    assert.ok(Math.abs(content - reported) <= 2, `${id}: content ${content}, reported ${reported}`);
  }
  assert.ok(heights.length >= 2 && heights.every((h) => h > 200), heights.join(','));
  await screenshot(page, 'embed-example-1100x900');
  assert.deepEqual(page.errors, []);
});

test('the release build works from a sub-path of a static host', async () => {
  const sub = await serveStatic('/nonexistent-root', { '/docs/kafka/playground/': DIST });
  try {
    const page = await newPage(browser);
    await page.goto(sub.url + 'docs/kafka/playground/#p=connect/two-workers-join');
    await timelineReady(page);
    // The worker loaded from the sub-path too.
    await page.waitForSelector('main[data-worker="ready"]');
    const example = await newPage(browser);
    await example.goto(sub.url + 'docs/kafka/playground/embed-example.html');
    await example.frameLocator('#embed-joins').locator('svg.timeline path.bars').first().waitFor();
    assert.deepEqual([...page.errors, ...example.errors], []);
  } finally {
    await sub.close();
  }
});
