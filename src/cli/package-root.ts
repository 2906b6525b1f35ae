// Where the package is on disk: the folder of the package.json named
// dsh-devtools above this module. The same walk works from the source
// (src/cli/, run through tsx) and from the bundle (dist-cli/, installed).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  root: string;
  version: string;
}

let found: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (found) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'dsh-devtools') return (found = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the dsh-devtools package.json above the command; reinstall the package');
    dir = up;
  }
}

/**
 * The built app the `open` command serves: the package's dist/, or the folder
 * named by DSH_DEVTOOLS_APP (an app built elsewhere, e.g. by a test).
 */
export function appDir(): string {
  return path.resolve(process.env.DSH_DEVTOOLS_APP || path.join(packageInfo().root, 'dist'));
}
