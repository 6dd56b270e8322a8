import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The developer dashboard: served by Ledgerlink at /dashboard, files under /dashboard/assets/. */
export default defineConfig({
  root: here('./dashboard'),
  base: '/dashboard/',
  logLevel: 'warn',
  // Not emptied first, like the Connect app: a build while a server runs must not take the served files away.
  build: { outDir: here('../dist/web/dashboard'), emptyOutDir: false, assetsDir: 'assets', sourcemap: true, target: 'es2020' },
});
