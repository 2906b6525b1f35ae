// The `dsh-devtools` dispatcher: one command list, --help per subcommand,
// the exit codes (0 ok, 1 findings asked for, 2 usage) and output fit for pipes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { COMMANDS } from '../../src/cli/commands/index.ts';
import { bundledCommand, CLI, cliBundle, TSX } from '../helpers/open-cli.ts';

// The source bundled as the package builds it (node starts it fast); one case runs the source through tsx, as the npm scripts do.
const run = (...args: string[]) => { const [node, ...bundle] = bundledCommand(); return spawnSync(node, [...bundle, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }); };

beforeAll(async () => { await cliBundle(); }, 60_000);
const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('dsh-devtools (the command and its subcommands)', () => {
  it('--help lists every registered command; each command has its own --help; help <command> is the same', () => {
    const top = run('--help');
    expect(top.status).toBe(0);
    expect(top.stdout).toContain(`dsh-devtools ${version}`);
    for (const c of COMMANDS) expect(top.stdout).toMatch(new RegExp(`^  ${c.name} +${c.summary.replace(/[().]/g, '\\$&')}$`, 'm'));
    expect(COMMANDS.map((c) => c.name)).toEqual(['open', 'inspect', 'diff', 'whatif', 'summary', 'gen-log', 'serve-logs', 'export-html', 'calls', 'around', 'find', 'state', 'request', 'export-otlp']);
    for (const c of COMMANDS) {
      const help = run(c.name, '--help');
      expect(help.status, c.name).toBe(0);
      expect(help.stdout.split('\n')[0]).toBe(`usage: dsh-devtools ${c.usage}`);
      expect(help.stdout).toContain('--debug');
      for (const flag of Object.keys(c.flags)) expect(help.stdout, `${c.name} --${flag}`).toContain(`--${flag}`);
    }
    expect(run('help', 'open').stdout).toBe(run('open', '-h').stdout);
    expect(run('--version').stdout.trim()).toBe(version);
    // `npm run inspect` and friends run the source through tsx: the same dispatcher, the same text.
    const fromSource = spawnSync(TSX, [CLI, '--help'], { encoding: 'utf8' });
    expect(fromSource.status).toBe(0);
    expect(fromSource.stdout).toBe(top.stdout);
  }, 60_000);

  it('no command or an unknown one is a usage mistake (exit 2)', () => {
    const none = run();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('commands:');
    expect(none.stdout).toBe('');
    const unknown = run('explode', 'x.jsonl');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim()).toBe('dsh-devtools: unknown command "explode"; the commands are open, inspect, diff, whatif, summary, gen-log, serve-logs, export-html, calls, around, find, state, request, export-otlp (dsh-devtools --help)');
    const help = run('help', 'explode');
    expect(help.status).toBe(2);
    expect(help.stderr.trim()).toBe(unknown.stderr.trim());
  }, 30_000);

  it('inspect --fail-on-refused exits 1 on a log DSH refuses and 0 on a clean one; piped text has no colour codes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-cmd-'));
    const clean = path.join(dir, 'clean.jsonl');
    const lines = generateLog({ dialect: 'v4', seed: 5, turns: 2 }).text.split('\n');
    fs.writeFileSync(clean, lines.join('\n'));
    const refused = path.join(dir, 'gap.jsonl');
    fs.writeFileSync(refused, lines.filter((l) => !l.includes('"seq":20,')).join('\n'));

    const ok = run('inspect', clean, '--fail-on-refused');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^verdict {3}ok: /m);
    expect(ok.stdout).not.toContain('\x1b[');
    const bad = run('inspect', refused, '--fail-on-refused', '--json');
    expect(bad.status).toBe(1);
    const result = JSON.parse(bad.stdout);
    expect(result).toMatchObject({ ok: false, verdict: 'dsh-refuses' });
    expect(bad.stderr).toBe('');
    // Without the flag a refused log is still a successful read.
    expect(run('inspect', refused).status).toBe(0);
  }, 30_000);

  it('gen-log writes a log that inspect reads back (the README example)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-cmd-'));
    const out = path.join(dir, 'session.jsonl');
    const gen = run('gen-log', '--events', '2000', '--format', 'v4', '--out', out);
    expect(gen.status).toBe(0);
    const [, events] = gen.stdout.match(/: (\d+) events, /)!;
    const result = JSON.parse(run('inspect', out, '--json').stdout);
    expect(result.eventCount).toBe(Number(events));
    expect(result.verdict).toBe('ok');
  }, 30_000);

  it('gen-log --jobs writes 0.2.1-rc.2 job records that inspect --json lists as jobs, verdict ok; --jobs needs format 4', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-cmd-'));
    const out = path.join(dir, 'session.jsonl');
    const gen = run('gen-log', '--events', '1500', '--format', 'dsh021', '--jobs', '--out', out);
    expect(gen.status).toBe(0);
    expect(gen.stdout).toMatch(/background jobs/);
    const result = JSON.parse(run('inspect', out, '--json').stdout);
    expect(result.verdict).toBe('ok');
    expect(result.jobs.length).toBeGreaterThan(2);
    expect(result.jobs[0]).toMatchObject({ id: 'job-dev-server', kind: 'bash', runningAtEnd: true });
    expect(result.jobs.some((j: { outcome: string | null }) => j.outcome === 'completed')).toBe(true);
    const v0 = run('gen-log', '--events', '100', '--jobs', '--out', path.join(dir, 'v0.jsonl'));
    expect(v0.status).toBe(2);
    expect(v0.stderr).toMatch(/--jobs needs a format-4 log/);
  }, 30_000);

  it('whatif: undoing a compaction prints the comparison, the call it diverges at and the edited log; a bad edit list is an error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-cmd-'));
    const log = path.join(dir, 'session.jsonl');
    expect(run('gen-log', '--events', '1500', '--format', 'v4', '--out', log).status).toBe(0);
    const rows = fs.readFileSync(log, 'utf8').trimEnd().split('\n').slice(1).map((l) => JSON.parse(l));
    const replace = rows.findLast((r) => r.type === 'user/message' && r.surfaceOp && r.surfaceOp !== 'append');
    const edits = path.join(dir, 'edits.json');
    fs.writeFileSync(edits, JSON.stringify([{ kind: 'undo-replace', seq: replace.seq }]));
    const out = path.join(dir, 'edited.jsonl');
    const json = run('whatif', log, '--edits', edits, '--json', '--out', out);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ identical: false, problems: [], verdictAfter: { kind: 'ok' } });
    expect(report.edits[0].text).toBe(`undo the replace at seq ${replace.seq}`);
    const changed = report.calls.find((c: { status: string }) => c.status !== 'same');
    expect(changed.tokensAfter).toBeGreaterThan(changed.tokensBefore);
    expect(report.firstDivergence.callA).toBe(changed.before);
    // The edited log is one event pair shorter (the replace and its summary) and reads as DSH restores it.
    const edited = JSON.parse(run('inspect', out, '--json').stdout);
    expect(edited.eventCount).toBe(rows.length - 2);
    expect(edited.verdict).toBe('ok');
    const textOut = run('whatif', log, '--edits', edits);
    expect(textOut.stdout).toMatch(/first divergence: call \d+ → \d+/);
    expect(textOut.stdout).toMatch(/input tokens \(estimated\)/);
    fs.writeFileSync(edits, JSON.stringify([{ kind: 'drop' }]));
    const bad = run('whatif', log, '--edits', edits);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/edits\.json: edit 0\.seq/);
  }, 60_000);
});
