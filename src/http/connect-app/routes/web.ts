/** The built browser code (Vite output in dist/web), shared by the Connect pages and the asset route. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../../modules/connect/html.js';

/** dist/web at the package root, both from src/ (tsx, tests) and from dist/ (the build). */
export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../dist/web');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/**
 * A file under an app's assets folder (dist/web/assets for Connect, dist/web/dashboard/assets for the dashboard)
 * by its path below it, or undefined (never outside that folder).
 */
export function readAsset(relative: string, app: 'connect' | 'dashboard' = 'connect'): { body: Buffer; type: string } | undefined {
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(relative) || relative.split('/').some((p) => p === '..' || p === '.' || p === '')) return undefined;
  const folder = path.join(WEB_DIR, ...(app === 'dashboard' ? ['dashboard'] : []), 'assets');
  const file = path.join(folder, relative);
  const type = TYPES[path.extname(file)];
  if (!type || !file.startsWith(folder + path.sep)) return undefined;
  try {
    return { body: fs.readFileSync(file), type };
  } catch {
    return undefined;
  }
}

/** The Connect app's page (or the dashboard's), or undefined when the web app was not built. */
export function appPage(app: 'connect' | 'dashboard' = 'connect'): string | undefined {
  try {
    return fs.readFileSync(path.join(WEB_DIR, ...(app === 'dashboard' ? ['dashboard'] : []), 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
}

/** A small self-contained page (errors, the OAuth pages): a card with a title, text and optional extra HTML. */
export function simplePage(title: string, message: string, extraHtml = '', color = '#1f5fbf'): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6f8;color:#1d2733;display:flex;min-height:100vh;align-items:center;justify-content:center}` +
    `main{background:#fff;max-width:440px;width:calc(100% - 32px);padding:32px;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.08)}h1{font-size:22px;margin:0 0 12px}p{line-height:1.5}` +
    `button,.button{background:${color};color:#fff;border:0;border-radius:8px;padding:12px 20px;font-size:16px;cursor:pointer;text-decoration:none;display:inline-block;margin:4px 8px 4px 0}` +
    `button.secondary{background:#e3e7ec;color:#1d2733}label{display:block;margin:8px 0 4px;font-weight:600}select,input{width:100%;box-sizing:border-box;padding:10px;font-size:16px;border:1px solid #aab3bf;border-radius:6px}` +
    `:focus-visible{outline:3px solid ${color};outline-offset:2px}</style></head><body><main><h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>${extraHtml}</main></body></html>`
  );
}
