import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('./http-client.mjs', import.meta.url));

/** One JSON line after another from a client process's stdout. */
function linesOf(child: ChildProcess): () => Promise<Record<string, unknown>> {
  const queue: Record<string, unknown>[] = [];
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const value = JSON.parse(line) as Record<string, unknown>;
    const next = waiting.shift();
    if (next) next(value);
    else queue.push(value);
  });
  return () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

async function start(args: string[]): Promise<{ child: ChildProcess; next: () => Promise<Record<string, unknown>> }> {
  const child = spawn(process.execPath, [CLIENT, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = linesOf(child);
  const ready = await next();
  if (ready.ready !== true) throw new Error(`the client did not start: ${JSON.stringify(ready)}`);
  return { child, next };
}

export interface OutsideAnswer {
  status: number;
  ms: number;
  body: string;
}

/**
 * An upload from a process of its own (test/helpers/http-client.mjs), started and ready before `send()`: starting a
 * process and writing its 10 MB take this process's event loop, which a server in it shares.
 */
export async function outsideUpload(url: string, headers: Record<string, string>, body: string): Promise<{ send(): Promise<OutsideAnswer>; dispose(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-outside-'));
  const file = path.join(dir, 'body');
  fs.writeFileSync(file, body);
  const { child, next } = await start(['upload', url, file, JSON.stringify(headers)]);
  return {
    send: async () => {
      child.stdin!.write('go\n');
      return (await next()) as unknown as OutsideAnswer;
    },
    dispose: () => {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A client in a process of its own asking `url` one request after another while started, `pauseMs` apart on one kept
 * connection (GET, or `request.method` with `request.body`, in which `{n}` becomes the request's number); `stop()`
 * answers the latencies (ms).
 */
export async function outsideProbe(
  url: string,
  pauseMs: number,
  request: { method: string; body: string; headers: Record<string, string> } | undefined = undefined,
): Promise<{ start(): void; stop(): Promise<number[]> }> {
  const { child, next } = await start(['probe', url, String(pauseMs), ...(request ? [request.method, request.body, JSON.stringify(request.headers)] : [])]);
  return {
    start: () => child.stdin!.write('start\n'),
    stop: async () => {
      child.stdin!.write('stop\n');
      const answer = await next();
      if (answer.error) throw new Error(String(answer.error));
      return answer.ms as number[];
    },
  };
}
