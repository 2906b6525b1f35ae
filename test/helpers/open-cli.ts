// Runs `dsh-devtools open` as a user would (a child process, from the source
// through tsx, or any installed bin) against a real build of the app, and
// stops it the way Ctrl-C or a service manager would.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TSX = path.resolve('node_modules/.bin/tsx');
export const CLI = path.resolve('src/cli/main.ts');

let built: string | undefined;

/** The app built into a temporary folder, once per test file (about 3 s); `npm test` needs no prior build. */
export function builtApp(): string {
  if (built) return built;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-app-'));
  execFileSync(path.resolve('node_modules/.bin/vite'), ['build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'pipe' });
  return (built = out);
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
 * Starts `open` (`command` + `args`: tsx and the source by default; `installed`:
 * a command that serves its own package's dist/) and resolves once it printed its URL.
 */
export function startOpen(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; command?: string[]; installed?: boolean } = {}): Promise<OpenRun> {
  const [bin, ...pre] = options.command ?? [TSX, CLI, 'open'];
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
