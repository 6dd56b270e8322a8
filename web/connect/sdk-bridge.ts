/**
 * Connect's side of the web SDK protocol (the published connect-web-sdk and ours): answer the SDK's `ping`
 * with `ack`, then post `{type, data}` events to the window that pinged (the iframe's parent or the popup's
 * opener), to that window's origin only.
 */
import type { ConnectSdkEvent, ConnectSdkRouteEvent } from '../shared/contract.js';

type Listener = (message: { type: string; [key: string]: unknown }) => void;

/** The data of each event Connect posts (web/sdk/connect.ts hears them with the same types). */
interface SdkEvents {
  done: ConnectSdkEvent;
  cancel: ConnectSdkEvent;
  error: ConnectSdkEvent;
  route: ConnectSdkRouteEvent;
  user: Record<string, unknown>;
  url: undefined;
  closePopup: undefined;
}

let sdkWindow: MessageEventSource | null = null;
let sdkOrigin = '';
const listeners: Listener[] = [];
const queue: unknown[] = [];

/** Whether Connect runs inside an iframe. */
export const inIframe = (() => {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
})();

window.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as { type?: unknown } | null;
  if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
  const fromHost = event.source !== null && (event.source === window.parent || event.source === window.opener);
  if (!fromHost) return;
  if (data.type === 'ping') {
    const first = sdkWindow === null;
    sdkWindow = event.source;
    sdkOrigin = event.origin;
    (sdkWindow as Window).postMessage({ type: 'ack' }, sdkOrigin);
    if (first) for (const m of queue.splice(0)) (sdkWindow as Window).postMessage(m, sdkOrigin);
  }
  if (event.origin === sdkOrigin) for (const l of listeners) l(data as { type: string });
});

/** Whether an SDK answered (pinged) us. */
export function hasSdk(): boolean {
  return sdkWindow !== null;
}

/** Posts an event to the SDK; kept until the SDK pings when it has not yet. */
export function emit<K extends keyof SdkEvents>(type: K, data?: SdkEvents[K], extra: Record<string, unknown> = {}): void {
  const message = { type, ...(data !== undefined ? { data } : {}), ...extra };
  if (sdkWindow) (sdkWindow as Window).postMessage(message, sdkOrigin);
  else if (queue.length < 50) queue.push(message);
}

/** Hears messages from the SDK (e.g. `window` when a sign-in window it opened was closed). */
export function onSdkMessage(listener: Listener): void {
  listeners.push(listener);
}
