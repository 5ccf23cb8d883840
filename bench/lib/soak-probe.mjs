// Loaded into the soak benchmark's `quarry start` with `node --expose-gc --import` (bench/soak.mjs), on
// the main thread of the quarry process only (not its extraction threads, not the fold process):
// each time the benchmark creates `<SOAK_PROBE_FILE>.request` it answers with one JSON line in
// SOAK_PROBE_FILE: the V8 heap after a full collection, and the event loop's delay since the last
// answer. No port and no signal of its own, so the process under test serves nothing more.
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const out = process.env.SOAK_PROBE_FILE;
if (out && isMainThread && /quarry\.js$/.test(process.argv[1] ?? '')) {
  const request = `${out}.request`;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    if (!existsSync(request)) return;
    rmSync(request, { force: true });
    globalThis.gc?.();
    const m = process.memoryUsage();
    appendFileSync(
      out,
      `${JSON.stringify({
        at: Date.now(),
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        loopP99Ms: delay.percentile(99) / 1e6,
        loopMaxMs: delay.max / 1e6,
      })}\n`,
    );
    delay.reset();
  }, 250).unref();
}
