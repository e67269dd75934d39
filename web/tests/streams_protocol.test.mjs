// The streams protocol (KIP-1071) has no rounds: its column shows target
// assignment epochs (markers), each member's reconciliation band on its lane,
// and the target's details per member; previous/next steps through them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveStatic, launchBrowser, newPage, screenshot, timelineReady } from './harness.mjs';

let server;
let browser;
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const playhead = (page) => page.locator('#clock').getAttribute('data-t').then(Number);
const column = (page) => page.locator('article.column[data-label="streams protocol"]');

test('a streams-protocol column shows target epochs, reconciliation bands and target details', async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(server.url + '#p=streams/streams-protocol-instance-joins');
  await timelineReady(page);
  await page.click('#zoom-whole');
  const col = column(page);
  assert.equal(await col.getAttribute('data-rounds'), '0');
  assert.equal(await col.getAttribute('data-targets'), '2');
  assert.match(await col.locator('.now-target').textContent(), /^target epoch \d+$/);
  assert.equal(await col.locator('.target-count').textContent(), '2');
  // No rounds card for a protocol without rounds: its target assignments
  // in the measured window (here the whole run: epochs 3 and 4).
  const card = col.locator('dl.metrics.headline .metric[data-key="target_assignments"]');
  assert.equal(await card.locator('dt').textContent(), 'targets');
  assert.equal(await card.getAttribute('data-raw'), '2');
  assert.equal(await col.locator('dl.metrics.headline .metric[data-key="rebalance_rounds"]').count(), 0);
  // Classic columns keep their generation.
  assert.ok(await page.locator('article.column[data-label="classic + warmups"] .now-generation').count() === 1);
  const epochs = await col.locator('g.target-epoch').evaluateAll((gs) => gs.map((g) => +g.dataset.epoch));
  assert.deepEqual(epochs, [3, 4]);
  // Reconciliation bands: every state this join goes through, named after Kafka's MemberState.
  const states = await col.locator('rect.recon').evaluateAll((rs) => [...new Set(rs.map((r) => r.dataset.state))].sort());
  assert.deepEqual(states, ['STABLE', 'UNRELEASED_TASKS', 'UNREVOKED_TASKS']);
  const title = await col.locator('rect.recon[data-state="UNREVOKED_TASKS"] title').first().textContent();
  assert.match(title, /UNREVOKED_TASKS.*revoking 0_\d/);
  assert.ok(await page.locator('.legend .swatch.target').count() === 1);

  // Hovering an epoch marker selects it, as hovering a round marker does
  // (the markers share one pair of listeners on their group). Epoch 4's
  // wide target overlaps epoch 3's right half.
  await col.locator('g.target-epoch[data-epoch="3"] rect.round-hit').hover({ position: { x: 1, y: 20 } });
  await page.locator('.round-details.target-details[data-epoch="3"]').waitFor();

  // Click the join's epoch marker: the details list every member's reconciliation.
  await col.locator('g.target-epoch[data-epoch="4"] rect.round-hit').click();
  const details = page.locator('.round-details.target-details[data-epoch="4"]');
  await details.waitFor();
  assert.match(await details.locator('h3').textContent(), /streams protocol: target epoch 4/);
  assert.match(await details.locator('.explanation').textContent(), /instance-3 StreamThread-1 joined \(group epoch 4\)/);
  const head = await details.locator('thead').textContent();
  for (const word of ['target active', 'target standby', 'UNREVOKED_TASKS', 'UNRELEASED_TASKS', 'reached target']) assert.ok(head.includes(word), head);
  const rows = details.locator('tbody tr');
  assert.equal(await rows.count(), 3);
  const joiner = rows.filter({ hasText: 'instance-3 StreamThread-1' });
  assert.equal(await joiner.locator('td').nth(3).getAttribute('data-count'), '2', 'it waited for two tasks');
  assert.match(await joiner.locator('td.reached').textContent(), /^\+\d/);
  for (const name of ['instance-1 StreamThread-1', 'instance-2 StreamThread-1']) {
    const row = rows.filter({ hasText: name });
    assert.equal(await row.locator('td').nth(2).getAttribute('data-count'), '1', `${name} revoked one task`);
  }
  await screenshot(page, 'streams-protocol-target-1366x800');

  // Previous/next steps through rounds and target epochs alike.
  const at4 = +(await col.locator('g.target-epoch[data-epoch="4"]').getAttribute('data-at'));
  await page.click('#prev-round');
  await page.waitForFunction((t) => +document.querySelector('#clock').dataset.t < t, at4);
  await page.click('#next-round');
  await page.waitForFunction((t) => +document.querySelector('#clock').dataset.t === t, at4);
  // Stepping from the start reaches epoch 3 (computed at 0) in the details.
  await page.keyboard.press('Home');
  for (let i = 0; i < 8; i++) {
    if (await page.locator('.target-details[data-epoch="3"]').count()) break;
    await page.click('#next-round');
  }
  await page.waitForSelector('.target-details[data-epoch="3"]');
  assert.equal(await playhead(page), 0);
  // The story's target assignment line opens that target, as a round's line does.
  await page.keyboard.press('Escape');
  await page.locator('.story-columns button', { hasText: 'streams protocol' }).click();
  await page.locator('.story-list li.round', { hasText: 'target assignment: epoch 4' }).locator('button').click();
  await page.waitForSelector('.target-details[data-epoch="4"]');
  assert.deepEqual(page.errors, []);
});

test('screenshots of the streams-protocol preset on a phone and in an embed', async () => {
  for (const [viewport, path, name] of [
    [{ width: 390, height: 844 }, '#p=streams/streams-protocol-instance-joins', 'streams-protocol-390x844'],
    [{ width: 720, height: 480 }, '?embed=1#p=streams/streams-protocol-instance-joins', 'streams-protocol-embed-720x480'],
  ]) {
    const page = await newPage(browser, viewport);
    await page.goto(server.url + path);
    await timelineReady(page);
    assert.ok(await column(page).locator('g.target-epoch').count() >= 1, name);
    await screenshot(page, name);
    assert.deepEqual(page.errors, [], name);
    await page.close();
  }
});
