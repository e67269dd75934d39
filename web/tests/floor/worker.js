// Answers each request after `?busy=` ms of work (see index.html).
const busy = Number(new URLSearchParams(location.search).get('busy') ?? 0);
onmessage = (e) => {
  const start = performance.now();
  while (performance.now() - start < busy) { /* the simulation's stand-in */ }
  postMessage(e.data);
};
