// `npm run build:cli`: dist-cli/dsh-devtools.mjs, the package's `bin`.
import { bundleCli } from './cli-bundle.ts';

const outfile = 'dist-cli/dsh-devtools.mjs';
console.log(`${outfile}: ${((await bundleCli(outfile)) / 1024).toFixed(0)} KiB`);
