// The `dsh-devtools` command as one plain-JavaScript file for Node. Everything
// it imports (the core, zod, fzstd, diff) is bundled in, so the installed
// package needs no dependency and no TypeScript at run time. Used by
// `npm run build:cli` (dist-cli/) and by the tests (a bundle of the source
// they run in a fraction of tsx's start-up time).
import { build, type BuildOptions } from 'esbuild';

const OPTIONS: BuildOptions = {
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  banner: { js: '#!/usr/bin/env node' },
  // Whitespace and syntax only: names stay, so a --debug stack still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  logLevel: 'warning',
};

/** Writes the bundle to `outfile`; returns its size in bytes. */
export async function bundleCli(outfile: string): Promise<number> {
  const result = await build({ ...OPTIONS, outfile, metafile: true });
  return Object.values(result.metafile!.outputs).reduce((n, o) => n + o.bytes, 0);
}

/** The bundle's text, written nowhere. */
export async function bundleCliText(): Promise<string> {
  const result = await build({ ...OPTIONS, outfile: 'dsh-devtools.mjs', write: false });
  return result.outputFiles![0].text;
}
