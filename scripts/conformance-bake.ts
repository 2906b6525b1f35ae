// `npm run conformance:bake -- [dir] [--all] [--list]`: our core against the
// Bake conformance tables (../shared/conformance/bake/README.md). The cases
// judged as DSH checks are chosen in test/conformance/bake-selection.json;
// the rest are listed as skipped with the reason. One line per failing case,
// then `bake: N passed, M failed`; exit 1 when any failed.
// --all also runs the Bake-specific cases, for information only (never counted).
// --list prints every passed case too.
import { caseIndex, judgeCase, loadBakeTables, loadSelection } from './bake-lib.ts';
import { installCliErrors } from './cli.ts';

installCliErrors('bake');

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--')) ?? '../shared/conformance/bake/conformance';
const all = args.includes('--all');
const list = args.includes('--list');

let tables;
try {
  tables = loadBakeTables(dir);
} catch (err) {
  console.error(`bake: ${(err as Error).message}`);
  process.exit(2);
}
const selection = loadSelection();
const cases = caseIndex(tables);
const selected = new Map(selection.cases.map((e) => [`${e.table}:${e.id}`, e]));

// The selection must name every case of the tables, and nothing else.
const unlisted = [...cases.keys()].filter((k) => !selected.has(k));
const unknown = [...selected.keys()].filter((k) => !cases.has(k));
if (unlisted.length || unknown.length) {
  if (unlisted.length) console.log(`bake: selection lacks ${unlisted.length} case(s): ${unlisted.join(', ')}`);
  if (unknown.length) console.log(`bake: selection names ${unknown.length} case(s) the tables lack: ${unknown.join(', ')}`);
}

let passed = 0;
let failed = unlisted.length + unknown.length;
const skipped = new Map<string, string[]>();
const info: string[] = [];
for (const [key, { c }] of cases) {
  const entry = selected.get(key);
  if (!entry) continue;
  if (!entry.dsh) {
    const reason = entry.disagreement ? `DISAGREEMENT (see selection): ${entry.reason.split('.')[0]}` : entry.reason;
    skipped.set(reason, [...(skipped.get(reason) ?? []), key]);
    if (all) {
      const v = judgeCase({ ...entry, judge: undefined }, c, tables);
      info.push(`${v.ok ? 'agree   ' : 'differ  '} ${key}${v.ok ? '' : `: ${v.detail}`}`);
    }
    continue;
  }
  const v = judgeCase(entry, c, tables);
  if (v.ok && entry.expectCode && !v.detail.startsWith(`${entry.expectCode}:`)) {
    failed++;
    console.log(`FAIL ${key}: rejected, but for another reason than ${entry.expectCode}: ${v.detail}`);
  } else if (v.ok) {
    passed++;
    if (list) console.log(`pass ${key}${v.detail ? ` (${v.detail})` : ''}`);
  } else {
    failed++;
    console.log(`FAIL ${key}: ${v.detail}`);
  }
}

const skippedCount = [...skipped.values()].reduce((n, l) => n + l.length, 0);
console.log(`skipped ${skippedCount} Bake-specific case(s), by reason:`);
for (const [reason, keys] of skipped) console.log(`  ${keys.length} × ${reason}\n      ${keys.join(', ')}`);
if (all) {
  console.log('Bake-specific cases run for information (not counted):');
  for (const line of info) console.log(`  ${line}`);
}
const byTable = (t: string) => selection.cases.filter((e) => e.table === t && e.dsh).length;
console.log(`selected: ${byTable('derivation')} request-derivation, ${byTable('admission')} prompt-admission`);
console.log(`bake: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
