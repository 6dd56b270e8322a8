/**
 * Ledgerlink Connect web SDK 2.0. Opens a Connect link in an iframe (default) or a popup and relays Connect's
 * events to the page's handlers, speaking the same postMessage protocol as the published `connect-web-sdk`:
 * the SDK pings Connect every second until it answers `ack`; Connect then posts `{type, data}` messages
 * (done, cancel, error, route, user, url, closePopup). Only messages from the Connect URL's origin are heard.
 */

import type { ConnectSdkEvent, ConnectSdkRouteEvent } from '../shared/contract.js';

/** The data of done, cancel and error events: code and reason, and whatever else Connect adds. */
export interface ConnectEvent extends ConnectSdkEvent {}
/** The data of route events: the screen Connect shows now. */
export interface ConnectRouteEvent extends ConnectSdkRouteEvent {}

export interface ConnectEventHandlers {
  onDone: (event: ConnectEvent) => void;
  onCancel: (event: ConnectEvent) => void;
  onError: (event: ConnectEvent) => void;
  onRoute?: (event: ConnectRouteEvent) => void;
  onUser?: (event: unknown) => void;
  onLoad?: () => void;
  /** When given, the page opens and closes sign-in windows itself (type OPEN with the URL, or CLOSE). */
  onUrl?: (type: 'OPEN' | 'CLOSE', url?: string) => void;
}

export interface ConnectOptions {
  /** CSS selector of the element the iframe goes into (default: the body). */
  selector?: string;
  /** The element the iframe goes into. */
  node?: Node;
  /** Background of the iframe overlay. */
  overlay?: string;
  /** Open Connect in a popup window instead of an iframe. */
  popup?: boolean;
  popupOptions?: { width?: number; height?: number; top?: number; left?: number };
  redirectUrl?: string;
}

export const SDK_VERSION = '2.0.0';
const IFRAME_ID = 'connectIframe';
const STYLES_ID = 'connectIframeStyles';

let iframe: HTMLIFrameElement | undefined;
let target: Window | null = null;
let popup: Window | null = null;
let signInWindow: Window | null = null;
let pingTimer: ReturnType<typeof setInterval> | undefined;
let watchTimer: ReturnType<typeof setInterval> | undefined;
let listener: ((event: MessageEvent) => void) | undefined;
let connectUrl = '';

function post(data: unknown): void {
  target?.postMessage(data, new URL(connectUrl).origin);
}

function openSignInWindow(url: string): void {
  signInWindow = window.open(url, 'connectSignIn', 'toolbar=no,location=no,status=no,menubar=no,width=600,height=600');
  if (!signInWindow) {
    post({ type: 'window', closed: true, blocked: true });
    return;
  }
  signInWindow.focus();
  clearInterval(watchTimer);
  watchTimer = setInterval(() => {
    if (signInWindow?.closed) {
      clearInterval(watchTimer);
      post({ type: 'window', closed: true, blocked: false });
    }
  }, 1000);
}

function listen(options: ConnectOptions, handlers: ConnectEventHandlers): void {
  const origin = new URL(connectUrl).origin;
  pingTimer = setInterval(() => {
    const ping: Record<string, unknown> = {
      type: 'ping',
      sdkVersion: SDK_VERSION,
      platform: options.popup ? 'web' : 'iframe',
      attachedEventHandlers: Object.keys(handlers),
      isEmbedded: !!options.selector,
      isPopup: !!options.popup,
      isNodeAttached: !!options.node,
      overlay: options.overlay,
    };
    if (options.redirectUrl) ping.redirectUrl = options.redirectUrl;
    post(ping);
  }, 1000);
  listener = (event: MessageEvent) => {
    if (event.origin !== origin || !event.data || typeof event.data !== 'object') return;
    const { type, data } = event.data as { type?: string; data?: unknown; url?: string };
    switch (type) {
      case 'ack':
        // A popup keeps being pinged, so a reloaded popup finds its page again.
        if (!options.popup) clearInterval(pingTimer);
        break;
      case 'url':
        if (handlers.onUrl) handlers.onUrl('OPEN', (event.data as { url: string }).url);
        else openSignInWindow((event.data as { url: string }).url);
        break;
      case 'closePopup':
        if (handlers.onUrl) handlers.onUrl('CLOSE');
        else signInWindow?.close();
        break;
      case 'done':
        handlers.onDone(data as ConnectEvent);
        destroy();
        break;
      case 'cancel':
        handlers.onCancel(data as ConnectEvent);
        destroy();
        break;
      case 'error':
        handlers.onError(data as ConnectEvent);
        destroy();
        break;
      case 'route':
        handlers.onRoute?.(data as ConnectRouteEvent);
        break;
      case 'user':
        handlers.onUser?.(data);
        break;
      default:
        break;
    }
  };
  window.addEventListener('message', listener);
}

/** Opens Connect at `url` in an iframe (or, with options.popup, a popup) and relays its events to `handlers`. */
export function launch(url: string, handlers: ConnectEventHandlers, options: ConnectOptions = {}): Window | null {
  if (iframe?.parentNode) throw new Error('Connect is already open: call destroy() before launching it again.');
  connectUrl = url;
  if (options.popup) {
    const width = options.popupOptions?.width ?? 600;
    const height = options.popupOptions?.height ?? 600;
    const top = options.popupOptions?.top ?? window.screenY + (window.outerHeight - height) / 2;
    const left = options.popupOptions?.left ?? window.screenX + (window.outerWidth - width) / 2;
    popup = window.open(url, 'connectPopup', `toolbar=no,location=no,status=no,menubar=no,width=${width},height=${height},top=${top},left=${left}`);
    if (!popup) {
      handlers.onError({ code: 1403, reason: 'error' });
      return null;
    }
    target = popup;
    popup.focus();
    listen(options, handlers);
    handlers.onLoad?.();
    return popup;
  }
  if (!document.getElementById(STYLES_ID)) {
    const style = document.createElement('style');
    style.id = STYLES_ID;
    style.textContent = `#${IFRAME_ID}{position:fixed;inset:0;width:100%;height:100%;border:0;z-index:2147483000;background:rgba(0,0,0,.6)}`;
    document.head.appendChild(style);
  }
  iframe = document.createElement('iframe');
  iframe.id = IFRAME_ID;
  iframe.src = url;
  iframe.title = 'Connect your financial accounts';
  iframe.setAttribute('role', 'dialog');
  iframe.setAttribute('aria-modal', 'true');
  iframe.setAttribute('allow', 'clipboard-write');
  if (options.overlay) iframe.style.background = options.overlay;
  const parent = options.node ?? (options.selector ? document.querySelector(options.selector) : null) ?? document.body;
  parent.appendChild(iframe);
  iframe.addEventListener('load', () => {
    if (!iframe) return;
    target = iframe.contentWindow;
    if (!listener) listen(options, handlers);
    handlers.onLoad?.();
    iframe.focus();
  });
  return null;
}

/** Closes Connect: removes the iframe (or closes the popup) and stops listening. */
export function destroy(): void {
  clearInterval(pingTimer);
  clearInterval(watchTimer);
  if (listener) window.removeEventListener('message', listener);
  listener = undefined;
  iframe?.parentNode?.removeChild(iframe);
  iframe = undefined;
  if (popup && !popup.closed) popup.close();
  popup = null;
  target = null;
}

/** The SDK object: `Connect.launch(url, handlers, options)` and `Connect.destroy()`. */
export const Connect = { launch, destroy, version: SDK_VERSION };
