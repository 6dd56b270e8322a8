import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The Connect web SDK 2.0, served at {connect_url}/assets/sdk/: connect.js (a classic script that defines
 * window.Connect) and connect.mjs (an ES module exporting Connect). Built after the app (it must not empty dist/web).
 */
export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: here('../dist/web/assets/sdk'),
    emptyOutDir: false,
    sourcemap: true,
    target: 'es2020',
    lib: {
      entry: here('./sdk/connect.ts'),
      name: 'Connect',
      formats: ['iife', 'es'],
      fileName: (format) => (format === 'es' ? 'connect.mjs' : 'connect.js'),
    },
  },
});
