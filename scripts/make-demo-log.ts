// Writes the demo logs the app offers on its start screen:
//   public/demo/demo-session.jsonl     V0 (0.1.0-rc.8 shape, packed chunk rows, one compaction+)
//   public/demo/demo-session-v4.jsonl  V4 (0.1.7-rc.2 shape, system head, image offload)
// Usage: npm run demo-log  (output is deterministic; rerun after generator changes)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateLog, type GenerateOptions } from '../src/core/generate/generate-log.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'public', 'demo');
mkdirSync(outDir, { recursive: true });

const demos: Array<[string, GenerateOptions]> = [
  ['demo-session.jsonl', { dialect: 'v0', seed: 2026, turns: 7, stepsPerTurn: 4, compactEvery: 3, packChunks: true }],
  ['demo-session-v4.jsonl', { dialect: 'v4', seed: 2026, turns: 8, stepsPerTurn: 5, compactEvery: 3, imageOffload: true }],
];

for (const [name, opts] of demos) {
  const log = generateLog(opts);
  writeFileSync(join(outDir, name), log.text);
  const counts = (type: string) => log.events.filter((e) => e.type === type).length;
  console.log(
    `${name}: ${log.events.length} events, ${log.lines.length} lines, ${Buffer.byteLength(log.text)} bytes; ` +
      `turns ${counts('turn/start')}, compactions ${counts('compaction/summary')}, prunes ${counts('compaction/prune')}, retries ${counts('llm/retry')}`,
  );
}
