/**
 * Where a served process allocates: V8's sampling heap profiler, objects collected since included, over a window
 * of load; prints the functions that allocated the most bytes to stderr. Loaded into the measured service:
 *
 *   LEDGERLINK_BENCH_NODE_FLAGS="--import ./bench/alloc-profile.mjs" npm run bench -- --scenario partner-json
 *
 * ALLOC_PROFILE_START_MS (default 14000: in bench/http.ts, past the limit and floor runs and the warm-up of one
 * scenario) and ALLOC_PROFILE_MS (default 3000) set the window, ALLOC_PROFILE_TOP (default 30) the number of
 * functions printed. The process that prepares the data set gets the flags too; its report comes first.
 */
import inspector from 'node:inspector';

const startAt = Number(process.env.ALLOC_PROFILE_START_MS ?? 14000);
const duration = Number(process.env.ALLOC_PROFILE_MS ?? 3000);
const top = Number(process.env.ALLOC_PROFILE_TOP ?? 30);
const session = new inspector.Session();
session.connect();
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));

function report(profile) {
  const bytes = new Map();
  let total = 0;
  const walk = (node) => {
    const f = node.callFrame;
    const where = `${f.functionName || '(anonymous)'} ${f.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${f.lineNumber + 1}`;
    if (node.selfSize) {
      bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const lines = [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, n]) => `${(n / 1048576).toFixed(1).padStart(8)} MB ${((100 * n) / total).toFixed(1).padStart(5)} %  ${where}`);
  process.stderr.write(`allocated ${(total / 1048576).toFixed(1)} MB in ${duration} ms (sampled), by function:\n${lines.join('\n')}\n`);
}

setTimeout(async () => {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  setTimeout(async () => report((await post('HeapProfiler.stopSampling')).profile), duration).unref();
}, startAt).unref();
