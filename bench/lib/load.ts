/**
 * Load with a request made afresh for every request (random customer, page, word...): autocannon's
 * `setupRequest`, on keep-alive connections. Latency is recorded per response in microseconds (autocannon's own
 * histogram keeps whole milliseconds, too coarse at a median of 1-2 ms), for 2xx answers only; every other status
 * is counted by code, so a run that measured refusals shows it.
 */
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type RequestGenerator = () => RequestSpec;

export interface LoadResult {
  /** 2xx answers per second of the run. */
  okPerSecond: number;
  ok: number;
  /** Non-2xx answers by status code. */
  non2xx: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  seconds: number;
  /** Latencies of the 2xx answers, ms. */
  latencies: Float64Array;
  /** Response bytes (headers and body) of the 2xx answers, per answer. */
  bytesPerAnswer: number;
}

export async function loadRun(url: string, next: RequestGenerator, options: { connections: number; duration: number }): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let ok = 0;
  let okBytes = 0;
  const non2xx: Record<string, number> = {};
  // Called with a callback, autocannon returns its instance (an event emitter) rather than a promise.
  let instance!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        connections: options.connections,
        duration: options.duration,
        requests: [
          {
            setupRequest: (req) => {
              const r = next();
              return { ...req, method: r.method, path: r.path, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
  instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) {
      if (ok === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[ok++] = responseTime;
      okBytes += resBytes;
    } else {
      non2xx[statusCode] = (non2xx[statusCode] ?? 0) + 1;
    }
  });
  const result = await done;
  const seconds = result.duration;
  return {
    okPerSecond: ok / seconds,
    ok,
    non2xx,
    // autocannon counts a timeout as an error too.
    errors: result.errors,
    seconds,
    latencies: latencies.slice(0, ok),
    bytesPerAnswer: ok === 0 ? 0 : okBytes / ok,
  };
}

/** The p-th percentile (nearest rank) of values, sorted here. */
export function percentileOf(values: Float64Array, p: number): number {
  if (values.length === 0) return NaN;
  const sorted = values.slice().sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function concat(arrays: Float64Array[]): Float64Array {
  const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}
