// `npm run build:cli`: the `dsh-devtools` command as one plain-JavaScript file
// for Node (dist-cli/dsh-devtools.mjs). Everything it imports (the core, zod,
// fzstd, diff) is bundled in, so the installed package needs no dependency
// and no TypeScript at run time.
import { build } from 'esbuild';

const outfile = 'dist-cli/dsh-devtools.mjs';
const result = await build({
  entryPoints: ['src/cli/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  banner: { js: '#!/usr/bin/env node' },
  // Whitespace and syntax only: names stay, so a --debug stack still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`${outfile}: ${(bytes / 1024).toFixed(0)} KiB`);
