import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.BILLFOLD_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    // `npm run build` (scripts/build.mjs) names a new directory with --outDir for every build and then switches
    // `dist` to it; a bare `vite build` must never empty the build a running server serves, so it writes here.
    outDir: 'builds/vite',
    emptyOutDir: true,
    // Inline assets would be data: URLs; served files keep the CSP simple and the entry chunk small.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/api': {
        target: apiTarget,
        configure(proxy) {
          // Say why the API could not be reached (ECONNREFUSED, ECONNRESET), so the login page can name it.
          proxy.on('error', (error: NodeJS.ErrnoException, _request, response) => {
            if ('writeHead' in response && !response.headersSent) {
              response.writeHead(502, { 'content-type': 'text/plain' }).end(error.code ?? error.message);
            }
          });
        },
      },
    },
  },
});
