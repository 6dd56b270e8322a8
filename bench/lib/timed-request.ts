import http from 'node:http';

/** One request on a fresh connection: its status, its time from sending to the end of the answer, and the body. */
export function timedRequest(
  base: string,
  route: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request(`${base}${route}`, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
