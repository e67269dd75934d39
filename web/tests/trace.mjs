// Chromium traces for the page's profiling tools (page_profile.mjs,
// first_profile.mjs, edit_trace.mjs): one way to record one, and to find
// the renderer's main thread in it.

/** Traces `categories` while `act()` runs; resolves to { result, events }. */
export async function recordTrace(page, categories, act) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories } });
  const result = await act();
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  return { result, events };
}

/** The events of the renderer's main thread (the thread named CrRendererMain). */
export function rendererMain(events) {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  return main ? events.filter((e) => e.pid === main.pid && e.tid === main.tid) : [];
}
