import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** The hosted Connect app: served by Ledgerlink at {connect_url} (/connect), files under /connect/assets/. */
export default defineConfig({
  root: here('./connect'),
  base: '/connect/',
  logLevel: 'warn',
  // Not emptied first: a build while a server runs (npm start during tests) must not take the served files away;
  // file names carry content hashes, so the same source rewrites the same files.
  build: { outDir: here('../dist/web'), emptyOutDir: false, assetsDir: 'assets', sourcemap: true, target: 'es2020' },
});
