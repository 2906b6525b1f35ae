// `npm run bench:follow [-- --turns N | --log FILE] [--rounds N]`: what following a
// growing log costs (docs/follow.md), as ratios to work measured in the same run. The
// core follower (the CLI's inspect --follow) against a bulk load of the same
// bytes, fed in 4 KiB appends; the app's refresh per batch (the last 8 KiB
// appended) against a fresh engine load: a refresh costs what
// was appended, so on a long log (`--log`) the ratio falls with its length.
import fs from 'node:fs';
import { generateLog } from '../src/core/generate/generate-log.ts';
import { FollowSession } from '../src/core/follow/follow-session.ts';
import { loadSession } from '../src/core/session/stream-load.ts';
import { Engine } from '../src/worker/engine.ts';
import { FollowHost } from '../src/worker/follow-host.ts';
import { installCliErrors } from './cli.ts';

installCliErrors('bench-follow');

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const turns = Number(option('turns') || 120);
const rounds = Number(option('rounds') || 5);
const log = option('log');
const bytes = log ? new Uint8Array(fs.readFileSync(log)) : new TextEncoder().encode(generateLog({ dialect: 'v4', seed: 5, turns }).text);
const pieces = (size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
const time = async (run: () => Promise<unknown>) => { const t = performance.now(); await run(); return performance.now() - t; };
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

const bulk: number[] = [];
const follow: number[] = [];
const engine: number[] = [];
const refresh: number[] = [];
for (let k = 0; k < rounds; k++) {
  bulk.push(await time(() => loadSession(pieces(1 << 20))));
  follow.push(await time(async () => { const f = new FollowSession(); for (const p of pieces(4096)) await f.append(p); await f.stop(); }));
  engine.push(await time(() => new Engine().load({ kind: 'bytes', bytes, name: 'x' }, () => {})));
  const host = new FollowHost(new Engine());
  await host.handle({ id: 1, op: 'follow-append', bytes: bytes.subarray(0, bytes.length - 8192), reset: true, name: 'x' }, () => {});
  refresh.push(await time(() => host.handle({ id: 2, op: 'follow-append', bytes: bytes.subarray(bytes.length - 8192), reset: false, name: 'x' }, () => {})));
}
const report = {
  logMB: +(bytes.length / 1e6).toFixed(2),
  appends: pieces(4096).length,
  bulkLoadMs: Math.round(median(bulk)),
  followMs: Math.round(median(follow)),
  followOverBulk: +(median(follow) / median(bulk)).toFixed(2),
  engineLoadMs: Math.round(median(engine)),
  refreshPerBatchMs: Math.round(median(refresh)),
  refreshOverEngineLoad: +(median(refresh) / median(engine)).toFixed(2),
};
console.log(JSON.stringify(report));
