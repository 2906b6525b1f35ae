import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { CSP } from './src/csp.ts';

/** The page's Content-Security-Policy (src/csp.ts) as a meta tag in the built index.html. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'dsh-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
  };
}

// `base: './'` keeps every asset URL relative, so `dist/` works from any
// static host and any sub-path.
/** Lists the built files so the service worker can cache the whole shell on install. */
function precacheManifest(): Plugin {
  return {
    name: 'dsh-precache-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => !f.endsWith('.map')).sort();
      this.emitFile({ type: 'asset', fileName: 'precache.json', source: JSON.stringify(files) });
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy(), precacheManifest()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/corpus/**', 'test/browser/**', 'test/package/**'],
          environment: 'node',
          // Property and fuzz tests do real work; CI machines have 2 cores.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'corpus',
          include: ['test/corpus/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // `npm run test:package`: packs and installs the project (needs npm and its cache; builds).
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
