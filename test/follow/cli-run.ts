import { spawn } from 'node:child_process';
import path from 'node:path';

const tsx = path.resolve('node_modules/.bin/tsx');
const cli = 'src/cli/main.ts';

/** Starts `inspect --follow --ndjson` on `file`; its lines arrive parsed. */
export function followCli(file: string) {
  const child = spawn(tsx, [cli, 'inspect', file, '--follow', '--ndjson', '--interval', '40'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: any[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) { lines.push(JSON.parse(buffer.slice(0, nl))); buffer = buffer.slice(nl + 1); }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited, stderr: () => stderr };
}

/** Polls until `ok()` or the time runs out. */
export async function until(ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

