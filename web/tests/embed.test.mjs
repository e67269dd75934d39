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

test('a 720×480 embed shows the timelines above the fold, columns side by side', async () => {
  for (const preset of ['connect/worker-dies', 'streams/stateful-scale-out']) {
    const page = await newPage(browser, { width: 720, height: 480 });
    await page.goto(server.url + `?embed=1#p=${preset}`);
    await timelineReady(page);
    const lanes = page.locator('svg.timeline .lane-bg');
    for (const column of [0, 1]) {
      const lane = await page.locator(`.column[data-variant="${column}"] svg.timeline .lane-bg`).first().boundingBox();
      assert.ok(lane, `${preset}: column ${column} has a lane`);
      assert.ok(lane.y + lane.height <= 480 && lane.x + lane.width <= 720 && lane.y >= 0, `${preset}: ${JSON.stringify(lane)}`);
    }
    const [a, b] = [await page.locator('.column').nth(0).boundingBox(), await page.locator('.column').nth(1).boundingBox()];
    assert.ok(b.x > a.x + a.width - 1 && Math.abs(a.y - b.y) < 2, 'side by side');
    // At most one row of headline numbers per column.
    const cards = await page.locator('.column[data-variant="0"] .metric').evaluateAll((els) =>
      els.filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect().top));
    assert.ok(cards.length >= 1 && new Set(cards.map(Math.round)).size === 1, `one row: ${cards}`);
    assert.ok(await lanes.count() > 2);
    await screenshot(page, `embed-720x480-${preset.replace('/', '-')}`);
    assert.deepEqual(page.errors, []);
  }
});

test('embed options: only=chart, only=timelines, column=N, max_height', async () => {
  const page = await newPage(browser, { width: 720, height: 480 });
  await page.goto(server.url + '?embed=1&only=chart#p=connect/worker-dies');
  await page.waitForSelector('.running-chart svg');
  await simulationShownSoon(page);
  assert.ok(await page.locator('.running-chart').isVisible());
  assert.equal(await page.locator('.columns').isVisible(), false, 'no lanes');

  await page.goto(server.url + '?embed=1&only=timelines#p=connect/worker-dies');
  await timelineReady(page);
  assert.equal(await page.locator('.running-chart').isVisible(), false, 'no chart');
  assert.ok(await page.locator('svg.timeline').first().isVisible());

  await page.goto(server.url + '?embed=1&column=2#p=connect/worker-dies');
  await timelineReady(page);
  const visible = page.locator('.column:visible');
  assert.equal(await visible.count(), 1);
  assert.match(await visible.getAttribute('data-label'), /^cooperative/);

  // A host page sees at most max_height.
  const host = await newPage(browser, { width: 900, height: 700 });
  await host.goto(server.url + 'embed-example.html');
  const reported = await host.evaluate(async (src) => {
    const heights = [];
    const f = document.createElement('iframe');
    // Only this iframe's reports (the example page embeds two more).
    window.addEventListener('message', (e) => { if (e.source === f.contentWindow && e.data?.type === 'rebalance-playground:height') heights.push(e.data.height); });
    f.src = src;
    f.style.width = '720px';
    document.body.prepend(f);
    await new Promise((ok) => { const t = setInterval(() => { if (heights.length) { clearInterval(t); ok(); } }, 50); });
    await new Promise((ok) => setTimeout(ok, 1500));
    return heights;
  }, server.url + '?embed=1&max_height=300#p=connect/worker-dies');
  assert.ok(reported.length > 0 && reported.every((h) => h <= 300), reported.join(','));
  assert.deepEqual([...page.errors, ...host.errors], []);
});

async function simulationShownSoon(page) {
  await page.waitForFunction(() => document.querySelector('main')?.dataset.shown === document.querySelector('main')?.dataset.request);
}

test('a bad link in an embed says so without mentioning a gallery', async () => {
  for (const bad of ['#s=1.z.AAAA', '#p=no/such', '#nonsense']) {
    const page = await newPage(browser, { width: 720, height: 480 });
    await page.goto(server.url + '?embed=1' + bad);
    await timelineReady(page);
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /link|preset/i, notice);
    assert.doesNotMatch(notice, /gallery/i, notice);
    assert.match(notice, /Showing “A worker joins” instead/);
    assert.deepEqual(page.errors, []);
  }
});

test('the Embed dialog gives a complete snippet: iframe, options and the resize listener', async () => {
  const page = await newPage(browser);
  await page.goto(server.url + '#p=connect/worker-dies');
  await timelineReady(page);
  await page.click('#embed-button');
  await page.selectOption('#embed-show', 'timelines');
  await page.fill('#embed-max-height', '480');
  await page.press('#embed-max-height', 'Enter');
  assert.match(await page.locator('#embed-snippet').inputValue(), /\?embed=1&amp;only=timelines&amp;max_height=480#p=connect\/worker-dies"/);
  await page.selectOption('#embed-show', 'column-1');
  const snippet = await page.locator('#embed-snippet').inputValue();
  assert.match(snippet, /\?embed=1&amp;column=2&amp;max_height=480#p=connect\/worker-dies"/);
  assert.match(snippet, /<script>[\s\S]*rebalance-playground:height[\s\S]*<\/script>$/);
  // Pasted into a page, the snippet sizes its iframe to what the embed reports.
  const host = await newPage(browser, { width: 1000, height: 800 });
  await host.goto(server.url + 'embed-example.html');
  await host.evaluate((html) => {
    document.body.innerHTML = '';
    const range = document.createRange();
    document.body.append(range.createContextualFragment(html));
  }, snippet);
  await host.waitForFunction(() => {
    const f = document.querySelector('iframe');
    return f && f.style.height && +f.style.height.replace('px', '') <= 480;
  }, null, { timeout: 30000 });
  await host.frameLocator('iframe').locator('svg.timeline path.bars').first().waitFor();
  assert.equal(await host.frameLocator('iframe').locator('.column:visible').count(), 1);
  assert.deepEqual([...page.errors, ...host.errors], []);
});
