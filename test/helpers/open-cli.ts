// Runs `dsh-devtools open` as a user would (a child process, from the source
// through tsx, or any installed bin) against a real build of the app, and
// stops it the way Ctrl-C or a service manager would.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { bundleCliText } from '../../scripts/cli-bundle.ts';

export const TSX = path.resolve('node_modules/.bin/tsx');
export const CLI = path.resolve('src/cli/main.ts');

let built: string | undefined;
let bundled: string | undefined;

/**
 * The command bundled from the source as `npm run build:cli` does (about 0.3 s),
 * for tests that start it many times: node starts it in a tenth of tsx's time.
 * It lives under node_modules/.cache, inside the package, so it finds the
 * package.json as the installed command does; named by content, so parallel
 * test files share one file.
 */
export async function cliBundle(): Promise<string> {
  if (bundled) return bundled;
  const text = await bundleCliText();
  const dir = path.resolve('node_modules/.cache/dsh-devtools-cli');
  const file = path.join(dir, `cli-${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const part = `${file}.${process.pid}`;
    fs.writeFileSync(part, text);
    fs.renameSync(part, file);
  }
  return (bundled = file);
}

/** `node <bundle>`: call cliBundle() (in beforeAll) first. */
export function bundledCommand(): string[] {
  if (!bundled) throw new Error('call cliBundle() before bundledCommand()');
  return [process.execPath, bundled];
}

/** The app built into a temporary folder, once per test file (about 3 s); `npm test` needs no prior build. */
export function builtApp(): string {
  if (built) return built;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-app-'));
  // A production build, as `npm run build` makes it (vitest sets NODE_ENV=test).
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(path.resolve('node_modules/.bin/vite'), ['build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'pipe', env });
  return (built = out);
}

/** Removes the build (call in afterAll). */
export function removeBuiltApp(): void {
  if (built) fs.rmSync(built, { recursive: true, force: true });
  built = undefined;
}

export interface OpenRun {
  child: ChildProcess;
  /** The first stdout line: the page to open. */
  url: URL;
  /** The page's `?url=`: where it fetches the log. */
  logUrl: URL;
  stderr(): string;
  /** Waits (up to 10 s) until stderr holds `text`, and returns all of it. */
  stderrWith(text: string): Promise<string>;
  /** Sends `signal` and resolves with the exit code and everything printed. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * Starts `open` (`command` + `args`: the bundled source by default, see
 * cliBundle; `installed`: a command that serves its own package's dist/) and
 * resolves once it printed its URL.
 */
export function startOpen(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; command?: string[]; installed?: boolean } = {}): Promise<OpenRun> {
  const [bin, ...pre] = options.command ?? [...bundledCommand(), 'open'];
  // An installed package serves its own dist/; the source serves a fresh build.
  const env = { ...process.env, ...(options.installed ? {} : { DSH_DEVTOOLS_APP: builtApp() }), ...options.env };
  if (options.installed) delete env.DSH_DEVTOOLS_APP;
  const child = spawn(bin, [...pre, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`open printed no URL in 20 s; stderr: ${stderr}`)); }, 20_000);
    const onData = () => {
      const line = stdout.split('\n')[0];
      if (!stdout.includes('\n')) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      const url = new URL(line);
      resolve({
        child, url, logUrl: new URL(url.searchParams.get('url') ?? ''), stderr: () => stderr,
        async stderrWith(text) {
          for (let i = 0; i < 100 && !stderr.includes(text); i++) await new Promise((r) => setTimeout(r, 100));
          if (!stderr.includes(text)) throw new Error(`stderr never showed ${JSON.stringify(text)}: ${stderr}`);
          return stderr;
        },
        async stop(signal = 'SIGTERM') {
          child.kill(signal);
          const code = await exited;
          return { code, stdout, stderr };
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`open exited (${code}) before printing a URL; stderr: ${stderr}`)); });
  });
}

/** The same URL with another token of the same length in the path. */
export function withWrongToken(url: URL): URL {
  const [, token, ...rest] = url.pathname.split('/');
  const wrong = token.split('').reverse().join('') === token ? `x${token.slice(1)}` : token.split('').reverse().join('');
  const other = new URL(url);
  other.pathname = ['', wrong, ...rest].join('/');
  return other;
}

/**
 * A suite of `open` runs: the command bundled and the app built before it,
 * every run still going stopped and the build removed after. Gives the
 * suite's way to start one.
 */
export function openSuite(): (args: string[], options?: Parameters<typeof startOpen>[1]) => Promise<OpenRun> {
  const runs: OpenRun[] = [];
  beforeAll(async () => { await cliBundle(); builtApp(); }, 60_000);
  afterAll(async () => {
    for (const run of runs) if (run.child.exitCode === null) await run.stop('SIGKILL');
    removeBuiltApp();
  });
  return async (args, options) => { const run = await startOpen(args, options); runs.push(run); return run; };
}
