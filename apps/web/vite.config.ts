import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `precache.json`: every script and style of this build. The service worker (public/sw.js)
 * caches them all, so that a screen never visited opens without a network too.
 */
function precacheList(): Plugin {
  return {
    name: 'agua-precache-list',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((name) => name.startsWith('assets/') && /\.(js|css)$/.test(name))
        .sort()
        .map((name) => `/${name}`);
      this.emitFile({ type: 'asset', fileName: 'precache.json', source: JSON.stringify(files) });
    },
  };
}

// The API server (apps/server) listens on 8080 in development; the browser talks to it only
// through this same-origin proxy so that the session cookie (SameSite=Strict) and the CSRF
// origin check behave exactly as in production.
const API_TARGET = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), precacheList()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      // `ws: true` carries the live socket (/api/v1/live); changeOrigin stays false so the
      // server sees the browser's Host and accepts its Origin.
      '/api': { target: API_TARGET, ws: true },
    },
  },
  preview: {
    proxy: { '/api': { target: API_TARGET, ws: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for debugging but not announced to browsers; the server serves them only
    // with SERVE_SOURCE_MAPS=true.
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 600,
  },
});
