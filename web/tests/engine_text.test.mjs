// Engine text in the page: the config names and values the engine marks
// with backticks (`default`, `sessioned`) show as code, never as literal
// backticks, in the story, the round details and the sweep's messages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, timelineReady } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The text of every element `selector` matches, and the code inside them. */
async function texts(page, selector) {
  return page.locator(selector).evaluateAll((els) => els.map((e) => ({
    text: e.textContent,
    code: [...e.querySelectorAll('code')].map((c) => c.textContent),
  })));
}

test('story lines and round details show backticked names as code', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  // An upgrade from eager: the eager rounds name protocol `default`, the
  // group protocol steps name the protocols they switch between.
  await page.goto(server.url + '#p=connect/mixed-version-upgrade');
  await timelineReady(page);
  await page.click('#next-round');
  await page.waitForSelector('.round-details .explanation');
  const details = await texts(page, '.round-details .explanation');
  const story = await texts(page, '.story-text');
  const all = [...details, ...story];
  assert.ok(all.length > 1, 'the story and the details are shown');
  for (const t of all) assert.ok(!t.text.includes('`'), `a literal backtick: ${t.text}`);
  const code = all.flatMap((t) => t.code);
  assert.ok(code.length > 0, `no code in ${JSON.stringify(all.map((t) => t.text))}`);
  assert.ok(code.every((c) => c.length > 0 && !c.includes('`')), JSON.stringify(code));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a sweep refusal shows the key it names as code', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=connect/worker-bounce');
  await timelineReady(page);
  await page.click('#sweep-button');
  await page.waitForSelector('#sweep-parameter');
  await page.selectOption('#sweep-parameter', { label: 'scheduled.rebalance.max.delay.ms' });
  // From above to: the engine refuses, naming the field in backticks.
  for (const [sel, value] of [['#sweep-from', '600000'], ['#sweep-to', '1000']]) {
    await page.fill(sel, value);
    await page.dispatchEvent(sel, 'change');
  }
  await page.waitForSelector('.sweep-refusal');
  const [refusal] = await texts(page, '.sweep-refusal');
  assert.ok(!refusal.text.includes('`'), refusal.text);
  assert.ok(refusal.code.length > 0, refusal.text);
  assert.deepEqual(page.errors, []);
  await page.close();
});
