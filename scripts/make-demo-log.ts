// Writes the demo logs the app offers on its start screen:
//   public/demo/demo-session.jsonl     V0 (0.1.0-rc.8 shape, packed chunk rows, one compaction+)
//   public/demo/demo-session-v4.jsonl  V4 (0.1.7-rc.2 shape, system head, image offload)
//   public/demo/demo-session-subagent.jsonl  a subagent forked from the V0 demo after turn 3
// Usage: npm run demo-log  (output is deterministic; rerun after generator changes)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_FORK, DEMO_LOGS } from '../src/core/generate/demo-logs.ts';
import { generateFork, generateLog } from '../src/core/generate/generate-log.ts';
import { installCliErrors } from './cli.ts';

installCliErrors('demo-log');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'public', 'demo');
mkdirSync(outDir, { recursive: true });

const demos = DEMO_LOGS;

const fork = generateFork({ ...demos[0][1], ...DEMO_FORK });
const logs: Array<[string, ReturnType<typeof generateLog>]> = [
  ...demos.map(([name, opts]) => [name, generateLog(opts)] as [string, ReturnType<typeof generateLog>]),
  ['demo-session-subagent.jsonl', fork.child],
];
if (fork.parent.text !== logs[0][1].text) throw new Error('the fork parent must be the V0 demo itself');

for (const [name, log] of logs) {
  writeFileSync(join(outDir, name), log.text);
  const counts = (type: string) => log.events.filter((e) => e.type === type).length;
  console.log(
    `${name}: ${log.events.length} events, ${log.lines.length} lines, ${Buffer.byteLength(log.text)} bytes; ` +
      `turns ${counts('turn/start')}, compactions ${counts('compaction/summary')}, prunes ${counts('compaction/prune')}, retries ${counts('llm/retry')}`,
  );
}
