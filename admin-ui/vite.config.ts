// Builds the admin UI into dist/admin-ui/ with relative asset URLs, so the plugin can mount it under
// any path (`/admin`, `/cms/queries`, ...). `vite --config admin-ui/vite.config.ts` serves it for
// development and forwards /api to the demo server on port 3000.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/admin-ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
