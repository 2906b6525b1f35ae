// npm's `prepare` step (a clone's `npm install`, and an install from a git URL,
// which clones, installs the devDependencies and runs this): builds the app
// and the CLI when they are missing, so the `dsh-devtools` bin has something
// to run. An existing build is left alone (`npm run build` refreshes it);
// `npm pack` always rebuilds through `prepack`.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const built = fs.existsSync('dist/index.html') && fs.existsSync('dist-cli/dsh-devtools.mjs');
if (built) process.exit(0);
if (!fs.existsSync('node_modules/vite')) {
  console.log('prepare: dev dependencies are not installed, so dist/ and dist-cli/ are not built; run `npm install` then `npm run build`');
  process.exit(0);
}
console.log('prepare: building the app (dist/) and the dsh-devtools command (dist-cli/) once');
execSync('npm run build', { stdio: 'inherit' });
