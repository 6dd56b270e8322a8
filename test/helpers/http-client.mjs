// An HTTP client in a process of its own, driven through stdin, for tests that measure how a server answers while
// it works: neither sending 10 MB nor probing then costs the test's own process (which may host the server) a turn
// of its event loop, and the latency measured is what an outside client sees. Each answer is one JSON line on stdout.
//
//   node http-client.mjs upload URL FILE HEADERS_JSON  prints {"ready":true}; on the line "go" sends FILE as a POST
//                                                       body, then prints {"status","ms","body"} and exits
//   node http-client.mjs probe URL PAUSE_MS [METHOD BODY HEADERS_JSON]
//                                                       on the line "start" asks URL one request after another
//                                                       (GET, or METHOD with BODY, where {n} becomes the request's
//                                                       number), PAUSE_MS apart, on one kept connection; on "stop"
//                                                       prints {"ms":[...]} and exits
import fs from 'node:fs';
import http from 'node:http';
import readline from 'node:readline';

const [mode, url, file, headers] = process.argv.slice(2);
const [, , pause = '20', method = 'GET', bodyTemplate, probeHeaders = '{}'] = process.argv.slice(2);
const lines = readline.createInterface({ input: process.stdin });
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

// Probes keep their connection, as a client of an API does; an upload has one of its own.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function request(method, body, extraHeaders) {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.request(url, { method, agent: mode === 'probe' ? agent : false, headers: extraHeaders }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - start, body: text }));
    });
    req.on('error', (e) => resolve({ status: 0, ms: performance.now() - start, body: String(e) }));
    req.end(body);
  });
}

if (mode === 'upload') {
  const body = fs.readFileSync(file);
  const send = { ...JSON.parse(headers), 'content-length': String(body.length) };
  lines.once('line', async () => {
    print(await request('POST', body, send));
    process.exit(0);
  });
  print({ ready: true });
} else {
  let running = false;
  const ms = [];
  lines.on('line', async (line) => {
    if (line === 'stop') {
      running = false;
      print({ ms });
      process.exit(0);
    }
    if (line !== 'start' || running) return;
    running = true;
    for (let n = 1; running; n++) {
      const body = bodyTemplate?.replaceAll('{n}', String(n));
      const r = await request(method, body, { ...JSON.parse(probeHeaders), ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) });
      if (!running) break;
      if (r.status >= 300) {
        print({ error: `${r.status} ${r.body}` });
        process.exit(1);
      }
      ms.push(r.ms);
      await new Promise((resolve) => setTimeout(resolve, Number(pause)));
    }
  });
  print({ ready: true });
}
