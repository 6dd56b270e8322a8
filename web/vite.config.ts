import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The hosted Connect app: served by Ledgerlink at {connect_url} (/connect), files under /connect/assets/. */
export default defineConfig({
  root: here('./connect'),
  base: '/connect/',
  logLevel: 'warn',
  build: { outDir: here('../dist/web'), emptyOutDir: true, assetsDir: 'assets', sourcemap: true, target: 'es2020' },
});
