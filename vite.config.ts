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
    rolldownOptions: {
      // A feature's front door (its index.ts, issue 34) re-exports everything other features
      // may use; an importer takes a few names. The client's own modules do nothing when imported
      // (no import-time effects: providers, listeners and sockets start when called or rendered),
      // so a re-exported module nobody uses is left out of the chunk, with what it imports.
      treeshake: {
        moduleSideEffects: [
          { test: /[\\/]client[\\/](app|features|lib|ui)[\\/].*\.tsx?$/, sideEffects: false },
        ],
      },
      output: {
        // zod in one chunk: no page's first paint from the entry needs it, and the pages that do
        // would otherwise load it as several small chunks (issue 22, target 5).
        // The socket frames' schemas in one chunk as well: loaded together after the room paints,
        // as one request rather than six (every request counts against the per-address limit).
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            {
              name: 'frame-schemas',
              test: /shared[\\/]protocol[\\/]ws[\\/]/,
              // Not the modules they import: the entry shares some (texts, constants).
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
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
