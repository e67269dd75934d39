// The sweep view (#17): a sweep runs in a pool of simulator workers and
// plots; its link reproduces it; clicking a point opens that point's
// scenario in the comparison under its own link; the page's numbers for a
// built-in sweep equal `rebalance sweep --json`; a huge sweep can be
// cancelled; an embed shows the plot. Sweep times per built-in sweep are
// printed and written to web/tests/results/sweep.json (git-ignored).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic, launchBrowser, newPage, screenshot, simulationShown, REPO } from './harness.mjs';

const SWEEPS = ['sweeps/connect-delay-vs-bounce', 'sweeps/streams-warmups-vs-changelog', 'sweeps/streams-static-session-timeout'];

let server;
let browser;
const times = {};
before(async () => { server = await serveStatic(); browser = await launchBrowser(); });
after(async () => {
  await browser?.close();
  await server?.close();
  const dir = new URL('./results', import.meta.url).pathname;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'sweep.json'), JSON.stringify(times, null, 2) + '\n');
  console.log('# sweep times (ms, page)', JSON.stringify(times));
});

/** The CLI, as `cargo test` builds it. */
function cli(...args) {
  return execFileSync('cargo', ['run', '--quiet', '-p', 'rebalance-cli', '--', ...args],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 16 << 20 });
}

/** Waits for the sweep on screen to finish (or be cancelled). */
async function sweepDone(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const v = document.getElementById('sweep-view');
    return v && (v.dataset.state === 'done' || v.dataset.state === 'cancelled');
  }, null, { timeout });
}

/** Every plotted number: per panel (metric, in the result's order), per
 * variant, per point: [value, metric value]. */
async function plotted(page) {
  return page.evaluate(() => [...document.querySelectorAll('#sweep-plot .sweep-panel')].map((panel) =>
    [...panel.querySelectorAll('.sweep-line')].map((line) =>
      [...line.querySelectorAll('.sweep-point')].map((p) => [Number(p.dataset.value), Number(p.dataset.metricValue)]))));
}

/** The same from `rebalance sweep --json`'s result (undefined values are not plotted). */
function expected(result) {
  return result.metrics.map((_, m) => result.variants.map((_, v) => result.points
    .filter((p) => p.runs[v].metrics[m] !== null)
    .map((p) => [p.value, p.runs[v].metrics[m]])));
}

for (const id of SWEEPS) {
  test(`${id}: the link opens the sweep view, runs it and plots the CLI's numbers`, { timeout: 300000 }, async () => {
    const cliResult = JSON.parse(cli('sweep', id, '--json'));
    const page = await newPage(browser, { width: 1366, height: 800 });
    await page.goto(`${server.url}#p=${id}`);
    await sweepDone(page);
    const view = await page.evaluate(() => {
      const v = document.getElementById('sweep-view');
      return { view: document.querySelector('main').dataset.view, state: v.dataset.state, done: v.dataset.done, total: v.dataset.total, ms: Number(v.dataset.sweepMs), workers: Number(v.dataset.workers), hash: location.hash };
    });
    assert.equal(view.view, 'sweep');
    assert.equal(view.state, 'done');
    assert.equal(Number(view.total), cliResult.points.length);
    assert.equal(view.done, view.total);
    assert.equal(view.hash, `#p=${id}`, 'an unchanged built-in sweep keeps its link');
    assert.ok(await page.isVisible('#sweep-question'));
    assert.deepEqual(await plotted(page), expected(cliResult));
    // The legend names every compared variant; Kafka's default is marked when it is in range.
    const legend = await page.textContent('.sweep-legend');
    for (const v of cliResult.variants) assert.ok(legend.includes(v), `${v} in the legend`);
    if (cliResult.kafka_default !== null && cliResult.kafka_default >= cliResult.spec.from && cliResult.kafka_default <= cliResult.spec.to) {
      assert.ok(await page.$('#sweep-plot .kafka-default'), 'Kafka\'s default is marked');
    }
    // A second run in the warm pool: the time the target is about.
    await page.click('#sweep-run');
    await page.waitForFunction(() => document.getElementById('sweep-view').dataset.state === 'running', null, { timeout: 5000 }).catch(() => {});
    await sweepDone(page);
    const warm = await page.evaluate(() => Number(document.getElementById('sweep-view').dataset.sweepMs));
    times[id] = { points: cliResult.points.length, variants: cliResult.variants.length, workers: view.workers, first_run_ms: view.ms, warm_run_ms: warm };
    assert.deepEqual(await plotted(page), expected(cliResult), 'the same numbers again');
    if (id === SWEEPS[0]) await screenshot(page, 'sweep-1366x800');
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a sweep picked in the page runs, its link reproduces it, and a point opens its own scenario', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(`${server.url}#p=connect/worker-bounce`);
  await simulationShown(page);
  await page.click('#sweep-button');
  await page.waitForSelector('#sweep-parameter');
  await page.selectOption('#sweep-parameter', { label: 'scheduled.rebalance.max.delay.ms' });
  for (const [sel, value] of [['#sweep-from', '0'], ['#sweep-to', '600000'], ['#sweep-steps', '7']]) {
    await page.fill(sel, value);
    await page.dispatchEvent(sel, 'change');
  }
  // The link follows the spec before anything runs.
  await page.waitForFunction(() => location.hash.includes('&sweep='));
  await page.click('#sweep-run');
  await sweepDone(page);
  const here = await plotted(page);
  assert.equal(here.length, 6, 'one panel per Connect headline metric');
  assert.equal(here[0].length, 2, 'one line per compared protocol');
  assert.deepEqual(here[0][0].map(([v]) => v), [0, 100000, 200000, 300000, 400000, 500000, 600000]);
  const link = await page.evaluate(() => location.hash);
  assert.ok(link.startsWith('#p=connect/worker-bounce&sweep=1.'), link);
  // The CLI reads the same link and gets the same numbers.
  assert.deepEqual(here, expected(JSON.parse(cli('sweep', link, '--json'))));
  // The link, opened afresh, shows and runs the same sweep.
  const again = await newPage(browser, { width: 1366, height: 800 });
  await again.goto(`${server.url}${link}`);
  await sweepDone(again);
  assert.deepEqual(await plotted(again), here);
  assert.equal(await again.inputValue('#sweep-steps'), '7');
  await again.close();

  // Hover: the point's numbers for every variant.
  const target = '#sweep-plot .sweep-panel[data-metric="task_seconds_not_running"] .sweep-line[data-variant="1"] .sweep-point[data-value="100000"] .hit';
  await page.hover(target);
  const readout = await page.textContent('#sweep-readout');
  assert.ok(readout.includes('cooperative') && readout.includes('eager'), readout);
  // Click: the comparison of that exact scenario, under its own link.
  await page.click(target);
  await page.waitForFunction(() => document.querySelector('main').dataset.view === 'compare');
  await simulationShown(page);
  const pointLink = await page.evaluate(() => location.hash);
  assert.ok(pointLink.startsWith('#s=') && !pointLink.includes('&sweep='), pointLink);
  // That scenario is the preset with the clicked value written in.
  const scenario = JSON.stringify(JSON.parse(cli('url', 'decode', pointLink)));
  assert.match(scenario, /"scheduled\.rebalance\.max\.delay\.ms":100000\b/);
  await page.waitForSelector('svg.timeline');
  // Back returns to the sweep.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('main').dataset.view === 'sweep');
  await sweepDone(page);
  assert.deepEqual(await plotted(page), here);
  // Keys: the plot takes focus, the arrows and End pick a point (the
  // readout and the hover line follow), Enter opens it.
  // (The pointer leaves the plot first: a point under it is hovered again
  // whenever the plot is redrawn.)
  await page.mouse.move(1, 1);
  await page.focus('.sweep-plot-box');
  const caption = (text) => page.waitForFunction((t) => document.querySelector('#sweep-readout caption')?.textContent.endsWith(t), text);
  await page.keyboard.press('End');
  await caption('= 10 min');
  await page.keyboard.press('ArrowLeft');
  await caption('= 8 min 20 s');
  assert.equal(await page.locator('#sweep-plot .hover-line').count(), 6, 'one hover line per panel');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('main').dataset.view === 'compare');
  await simulationShown(page);
  const keyLink = await page.evaluate(() => location.hash);
  assert.match(JSON.stringify(JSON.parse(cli('url', 'decode', keyLink))), /"scheduled\.rebalance\.max\.delay\.ms":500000\b/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a 1,000-worker × 100,000-task sweep shows progress and can be cancelled', { timeout: 300000 }, async () => {
  const page = await newPage(browser, { width: 1366, height: 800 });
  await page.goto(`${server.url}#p=connect/worker-joins`);
  await simulationShown(page);
  const json = cli('bench', '--scenario', 'connect-scenario-1000w-100000t');
  const fragment = await page.evaluate((json) => {
    const spec = btoa(JSON.stringify({ key: 'scheduled.rebalance.max.delay.ms', from: 0, to: 600000, steps: 100 }))
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return window.wasmBindings.encodeLink(JSON.parse(json)) + '&sweep=1.j.' + spec;
  }, json);
  await page.evaluate((f) => { location.hash = f; }, fragment);
  await page.waitForFunction(() => document.getElementById('sweep-view')?.dataset.state === 'running', null, { timeout: 60000 });
  assert.equal(await page.getAttribute('#sweep-view', 'data-total'), '100');
  // The page answers while the pool simulates.
  const started = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const frameMs = Date.now() - started;
  await page.click('#sweep-cancel');
  await page.waitForFunction(() => document.getElementById('sweep-view').dataset.state === 'cancelled');
  const done = Number(await page.getAttribute('#sweep-view', 'data-done'));
  assert.ok(done < 100, `${done} points done`);
  assert.ok(await page.isVisible('#sweep-run'), 'Run is offered again');
  console.log(`# huge sweep: a frame in ${frameMs} ms while running; cancelled after ${done} points`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Each panel's box and the plot's, the page's width and height. */
async function panelBoxes(page) {
  return page.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
    return {
      svg: box(document.getElementById('sweep-plot')),
      panels: [...document.querySelectorAll('#sweep-plot .sweep-panel')].map((p) => ({ metric: p.dataset.metric, ...box(p) })),
      width: document.documentElement.clientWidth,
      height: window.innerHeight,
      scroll: document.documentElement.scrollWidth,
    };
  });
}

for (const [width, height] of [[1366, 800], [1280, 800], [390, 844]]) {
  test(`at ${width}×${height} every panel, its last point and its labels lie inside the plot and the page`, { timeout: 120000 }, async () => {
    const page = await newPage(browser, { width, height });
    for (const id of ['sweeps/connect-delay-vs-bounce', 'sweeps/streams-warmups-vs-changelog']) {
      await page.goto(`${server.url}#p=${id}`);
      await sweepDone(page);
      const b = await panelBoxes(page);
      assert.ok(b.panels.length >= 6, `${id}: ${b.panels.length} panels`);
      const at = (p) => `${id} ${p.metric}: ${JSON.stringify(p)} in ${JSON.stringify(b.svg)}`;
      for (const p of b.panels) {
        // Half a pixel for rounding in the scaled SVG.
        assert.ok(p.left >= b.svg.left - 0.5 && p.right <= b.svg.right + 0.5, at(p));
        assert.ok(p.top >= b.svg.top - 0.5 && p.bottom <= b.svg.bottom + 0.5, at(p));
      }
      assert.ok(b.svg.left >= 0 && b.svg.right <= b.width, `${id}: the plot ${JSON.stringify(b.svg)} in ${b.width} px`);
      assert.ok(b.scroll <= b.width, `${id}: the page scrolls sideways (${b.scroll} > ${b.width})`);
      // The plot starts in the first screen, below the question and the form.
      assert.ok(b.panels[0].bottom <= b.height, `${id}: the first panel ends at ${b.panels[0].bottom}, below ${b.height}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a phone shows the sweep in one column', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${server.url}#p=sweeps/connect-delay-vs-bounce`);
  await sweepDone(page);
  const box = await page.evaluate(() => {
    const r = document.getElementById('sweep-plot').getBoundingClientRect();
    return { right: r.right, scroll: document.documentElement.scrollWidth };
  });
  assert.ok(box.right <= 390 && box.scroll <= 390, JSON.stringify(box));
  await screenshot(page, 'sweep-390x844');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an embedded sweep shows its plot within 720×480', { timeout: 120000 }, async () => {
  const page = await newPage(browser, { width: 720, height: 480 });
  await page.goto(`${server.url}?embed=1#p=sweeps/streams-warmups-vs-changelog`);
  await sweepDone(page);
  assert.equal(await page.$('#sweep-parameter'), null, 'no form in an embed');
  const box = await page.evaluate(() => {
    const r = document.getElementById('sweep-plot').getBoundingClientRect();
    return { right: r.right, bottom: r.bottom, panels: document.querySelectorAll('#sweep-plot .sweep-panel').length };
  });
  assert.equal(box.panels, 7, 'every Streams headline metric');
  assert.ok(box.right <= 720 && box.bottom <= 480, JSON.stringify(box));
  const open = await page.getAttribute('#open-in-playground', 'href');
  assert.ok(open.endsWith('#p=sweeps/streams-warmups-vs-changelog'), open);
  await screenshot(page, 'sweep-embed-720x480');
  assert.deepEqual(page.errors, []);
  await page.close();
});
