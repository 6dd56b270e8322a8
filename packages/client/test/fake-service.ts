import type { Clock } from '../src/clock.js';

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

type Handler = (request: SeenRequest, index: number) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/**
 * A fetch that stands in for the service: partner authentication answers numbered tokens (tok-1, tok-2, ...),
 * every other call goes to `handler`. Records what it was sent.
 */
export function fakeService(handler: Handler, authenticate: () => Response | Promise<Response> = () => json(200, {})) {
  const requests: SeenRequest[] = [];
  let tokens = 0;
  let calls = 0;
  const fetch = async (request: Request): Promise<Response> => {
    const seen: SeenRequest = { method: request.method, path: new URL(request.url).pathname, headers: request.headers, body: await request.text() };
    requests.push(seen);
    if (seen.path === '/aggregation/v2/partners/authentication') {
      const answer = await authenticate();
      if (answer.status !== 200) return answer;
      return json(200, { token: `tok-${++tokens}` });
    }
    return handler(seen, calls++);
  };
  return {
    fetch,
    requests,
    authentications: () => requests.filter((r) => r.path === '/aggregation/v2/partners/authentication'),
    calls: () => requests.filter((r) => r.path !== '/aggregation/v2/partners/authentication'),
  };
}
