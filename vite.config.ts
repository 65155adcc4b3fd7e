import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The client lives in client/ and is built into dist/client, which the server serves.
export default defineConfig({
  root: 'client',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Read by tests/unit/bundle-budget.test.ts: which chunks each route loads first.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:5000',
      '/chat-ws': { target: 'ws://127.0.0.1:5000', ws: true },
      '/ws': { target: 'ws://127.0.0.1:5000', ws: true },
    },
  },
});
