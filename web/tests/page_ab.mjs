// A/B of edit → redrawn (issue #13): two builds (AB_DIST_A, AB_DIST_B), or
// one build with a change applied in B's pages only (AB_CSS, a stylesheet
// added; or AB_JS, a script evaluated), measured in turns so that the
// machine's drift (a few ms within minutes on two shared cores) falls on
// both alike. Each page loads a preset, opens the editor and edits its
// worker or instance count up and down, timed as page_bench.mjs times an
// edit. Prints the median, minimum and maximum per side. Not a test:
//   AB_CSS='svg.timeline path.bars{display:none}' node page_ab.mjs
// AB_PRESETS (comma-separated ids), AB_N (edits per page, default 10) and
// AB_ROUNDS (turns, default 4) size it. docs/performance.md, "Session 17".
import { serveStatic, launchBrowser, newPage } from './harness.mjs';
import { QUIET_BROWSER_ARGS, editRedrawn, openForEdits } from './page_bench.mjs';

const PRESETS = (process.env.AB_PRESETS
  ?? 'connect/rolling-restart,connect/worker-joins,streams/stateful-scale-out,streams/streams-protocol-instance-joins').split(',');
const N = Number(process.env.AB_N ?? 10);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const { AB_DIST_A, AB_DIST_B, AB_CSS, AB_JS } = process.env;
if (!AB_DIST_B && !AB_CSS && !AB_JS) throw new Error('Set AB_DIST_B, AB_CSS or AB_JS: what B changes.');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

const serverA = await serveStatic(AB_DIST_A ?? undefined);
const serverB = AB_DIST_B ? await serveStatic(AB_DIST_B) : serverA;
const browser = await launchBrowser(QUIET_BROWSER_ARGS);
const ms = { A: [], B: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of (r % 2 ? ['B', 'A'] : ['A', 'B'])) {
      for (const id of PRESETS) {
        const page = await newPage(browser);
        const { field, n } = await openForEdits(page, side === 'B' ? serverB : serverA, id);
        if (side === 'B' && !AB_DIST_B) {
          if (AB_JS) await page.evaluate(AB_JS);
          else await page.addStyleTag({ content: AB_CSS });
        }
        await editRedrawn(page, field, n + 1); // warm: the first edit after a load is not timed
        for (let i = 0; i < N; i++) ms[side].push((await editRedrawn(page, field, i % 2 === 0 ? n : n + 1)).ms);
        await page.close();
      }
    }
  }
  for (const side of ['A', 'B']) {
    const xs = ms[side];
    console.log(`${side}: median ${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}), ${xs.length} edits`);
  }
} finally {
  await browser.close();
  await serverA.close();
  if (serverB !== serverA) await serverB.close();
}
