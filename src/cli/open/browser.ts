// Opens a URL in the user's default browser without a shell (the URL is
// passed as one argument, never parsed by sh or cmd). $BROWSER, when set,
// names the program to use instead, as many command-line tools allow.
import { spawn } from 'node:child_process';

export interface Launcher {
  command: string;
  args: string[];
}

export function launcherFor(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Launcher {
  if (env.BROWSER) return { command: env.BROWSER, args: [url] };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in that would parse the URL's % and &; this is the same handler without cmd.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the browser and does not wait for it; resolves with a reason when it could not be started. */
export function openBrowser(url: string): Promise<string | null> {
  const { command, args } = launcherFor(url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (err: NodeJS.ErrnoException) => resolve(`${command}: ${err.code === 'ENOENT' ? 'not found' : err.message}`));
    child.once('spawn', () => {
      child.unref();
      // xdg-open and open return at once with a status; a browser named by $BROWSER may run on.
      const timer = setTimeout(() => resolve(null), 2000);
      timer.unref();
      child.once('exit', (code) => { clearTimeout(timer); resolve(code ? `${command} exited with status ${code}` : null); });
    });
  });
}
