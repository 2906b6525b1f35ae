// `npm run test:package`: every command of the README's "Use it from a
// terminal" section, run as written, in order: the installs (into a temporary
// global prefix, offline), then the commands from an empty folder with a
// temporary HOME. Long-running `open` lines are checked through their URL and
// stopped. Also checks what the package holds and that it runs with no
// dependency installed beside it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogFile, readLogFileText } from '../../src/cli/node-source.ts';
import { whatIf } from '../../src/core/whatif/whatif.ts';
import { callLine } from '../../src/core/answers/calls.ts';
import { findEvents } from '../../src/core/answers/find.ts';
import { loadRun } from '../../src/core/compare/run.ts';
import { traceJsonLines } from '../../src/core/otlp/requests.ts';
import { sessionTrace } from '../../src/core/otlp/session-trace.ts';
import { traceSourceOf } from '../../src/core/otlp/source.ts';
import { curlCommand, providerRequest } from '../../src/core/requests/wire.ts';
import { throughProtobuf } from '../helpers/otlp-proto.ts';
import { CSP } from '../../src/csp.ts';
import { startOpen, withWrongToken } from '../helpers/open-cli.ts';

const repo = path.resolve('.');
const skill = fs.readFileSync('SKILL.md', 'utf8');
const readme = fs.readFileSync('README.md', 'utf8');
const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
const tarball = path.join(repo, `dsh-devtools-${version}.tgz`);

/** The shell lines of the section's code blocks, without their comments. */
function sectionCommands(): string[][] {
  const start = readme.indexOf('\n## Use it from a terminal\n');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(0);
  const section = readme.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1].split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean));
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-package-'));
const prefix = path.join(tmp, 'prefix');
const home = path.join(tmp, 'home');
const work = path.join(tmp, 'work');
const seen = path.join(tmp, 'browser-saw.txt');
const browser = path.join(tmp, 'browser.mjs');
// The folder example: a DSH-style sessions root in the temporary HOME (log-and-surface §1.2).
const sessionLog = path.join(home, '.dsh', 'sessions', '--work--', 'sess-1', 'session.jsonl');
const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: home,
  PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
  npm_config_prefix: prefix,
  npm_config_cache: cache,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  BROWSER: browser,
};
// As in a user's shell: no test-runner variables (vitest's NODE_ENV=test would make `npm pack` build React's development bundle).
for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('VITEST') || key === 'DSH_DEVTOOLS_APP') delete env[key];
const installed = path.join(prefix, 'lib', 'node_modules', 'dsh-devtools');

beforeAll(() => {
  for (const d of [prefix, work, path.dirname(sessionLog)]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(sessionLog, generateLog({ dialect: 'v4', seed: 8, turns: 2 }).text);
  // Stands in for the desktop's browser ($BROWSER): notes the URL it was asked to open.
  fs.writeFileSync(browser, `#!/usr/bin/env node\nimport fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(seen)}, process.argv[2]);\n`, { mode: 0o755 });
});
afterAll(() => { fs.rmSync(tarball, { force: true }); });

const sh = (line: string, cwd: string) => spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });

async function checkOpen(line: string): Promise<void> {
  fs.rmSync(seen, { force: true });
  const run = await startOpen([], { command: ['bash', '-c', `exec ${line}`], cwd: work, env, installed: true });
  const page = await fetch(run.url);
  expect(page.status, line).toBe(200);
  expect(page.headers.get('content-security-policy')).toBe(CSP);
  expect(await page.text()).toContain('<div id="root"></div>');
  const log = await fetch(run.logUrl);
  expect(log.status, line).toBe(200);
  const served = await log.text();
  expect((await fetch(withWrongToken(run.logUrl))).status).toBe(403);
  expect((await fetch(withWrongToken(run.url))).status).toBe(403);
  if (line.includes('~/.dsh/sessions')) expect(served).toBe(fs.readFileSync(sessionLog, 'utf8'));
  else expect(served).toBe(fs.readFileSync(path.join(work, 'session.jsonl'), 'utf8'));
  const at = line.match(/--at (\d+)/);
  expect(run.url.hash).toBe(at ? `#cs=${at[1]}` : '');
  if (!line.includes('--no-browser')) {
    for (let i = 0; i < 100 && !fs.existsSync(seen); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.readFileSync(seen, 'utf8')).toBe(run.url.href);
  }
  const stopped = await run.stop('SIGINT');
  expect(stopped.code, line).toBe(0);
}

/** The agent commands and the trace export, checked against what the source gives for the same log. */
async function checkAgentCommand(line: string, stdout: string): Promise<void> {
  const file = path.join(work, 'session.jsonl');
  const read = await readLogFile(file);
  const loaded = loadRun(read, 'session.jsonl');
  const bound = Number(/--max-bytes (\d+)/.exec(line)?.[1] ?? 32_768);
  expect(Buffer.byteLength(stdout), line).toBeLessThanOrEqual(bound);
  if (/ calls /.test(line)) {
    const lines = stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const tail = lines.at(-1).truncated ? lines.pop() : null;
    expect(lines).toEqual(loaded.run.requests.slice(0, lines.length).map((r) => JSON.parse(JSON.stringify(callLine(r)))));
    if (tail) expect(tail.next).toBe(`--from ${lines.length + 1}`);
  } else if (/ around /.test(line)) {
    const out = JSON.parse(stdout);
    expect(out.events.find((e: { at?: true }) => e.at).seq).toBe(out.atSeq);
  } else if (/ find /.test(line)) {
    const query = /find \S+ '([^']*)'/.exec(line)![1];
    const out = JSON.parse(stdout);
    expect(out.total).toBe(findEvents(read.events.slice(0, loaded.replay.session.loggedCount), query, 50).total);
    expect(out.total).toBeGreaterThan(0);
  } else if (/ state /.test(line)) {
    const at = Number(/--at (\d+)/.exec(line)![1]);
    const out = JSON.parse(stdout);
    expect(out.surface.ids).toEqual(inspect(read, { at }).surface.nodes);
  } else if (/ request /.test(line)) {
    const call = Number(/--call (\d+)/.exec(line)![1]);
    expect(stdout).toBe(curlCommand(providerRequest(loaded.run.requests[call - 1])));
  } else if (/ export-otlp /.test(line)) {
    const out = path.join(work, /--out (\S+)/.exec(line)![1]);
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toBe(traceJsonLines(sessionTrace(traceSourceOf(loaded), { content: false, redact: (t) => t, version })));
    for (const l of text.trimEnd().split('\n')) expect(throughProtobuf(JSON.parse(l)).back).toEqual(JSON.parse(l));
  } else if (!/ (gen-log|export-html|--help)/.test(line)) {
    throw new Error(`no check for a README command: ${line}`);
  }
}

/** SKILL.md's worked example: each shell block, then the lines its last command's output must hold. */
function skillSteps(): { commands: string[]; expected: string[] }[] {
  const start = skill.indexOf('\n## A worked example');
  const blocks = [...skill.slice(start).matchAll(/```(sh|text)\n([\s\S]*?)```/g)].map((m) => ({ kind: m[1], lines: m[2].split('\n').filter(Boolean) }));
  const steps: { commands: string[]; expected: string[] }[] = [];
  for (const b of blocks) {
    if (b.kind === 'sh') steps.push({ commands: b.lines, expected: [] });
    else steps.at(-1)!.expected.push(...b.lines);
  }
  return steps;
}

describe('README: Use it from a terminal', () => {
  const [install, use] = sectionCommands();

  it('shows the installs from a clone and from a tarball, and the commands', () => {
    expect(install.every((l) => l.startsWith('npm '))).toBe(true);
    expect(install).toContain('npm install -g .');
    expect(install).toContain(`npm install -g ./dsh-devtools-${version}.tgz`);
    expect(use.every((l) => /^(npx )?dsh-devtools /.test(l))).toBe(true);
    expect(use.some((l) => l.startsWith('dsh-devtools open ') && !l.includes('--no-browser'))).toBe(true);
  });

  it('installs as written (offline, into a temporary global prefix)', () => {
    for (const line of install) {
      const result = sh(line, repo);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      if (line === 'npm install -g .') {
        expect(fs.realpathSync(installed)).toBe(fs.realpathSync(repo));
        expect(sh('dsh-devtools --version', work).stdout.trim()).toBe(version);
      }
    }
    // The tarball install replaced the link with a real copy of the package.
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  });

  it('the installed package holds the built app and the command only, and needs no dependency', () => {
    const files = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
    expect(files.filter((f) => !/^(dist|dist-cli)\//.test(f)).sort()).toEqual(['README.md', 'SKILL.md', 'package.json']);
    expect(fs.readFileSync(path.join(installed, 'SKILL.md'), 'utf8')).toBe(skill);
    expect(files).toContain('dist/index.html');
    expect(files).toContain('dist-cli/dsh-devtools.mjs');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(fs.existsSync(path.join(installed, 'node_modules'))).toBe(false);
    const bundle = fs.readFileSync(path.join(installed, 'dist-cli', 'dsh-devtools.mjs'), 'utf8');
    // Not the word inside a string literal ("from" as a flag name).
    const imports = [...bundle.matchAll(/(?<!["'])(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((s) => !s.startsWith('node:'))).toEqual([]);
    expect(bundle).not.toMatch(/__require\(/);
    const unpacked = spawnSync('du', ['-sk', installed], { encoding: 'utf8' }).stdout.split('\t')[0];
    console.log(`package: ${(fs.statSync(tarball).size / 1024).toFixed(0)} KiB tarball, ${unpacked} KiB installed, ${files.length} files, 0 dependencies`);
  });

  it('runs every command as written, from an empty folder', async () => {
    for (const line of use) {
      if (/^(npx )?dsh-devtools open /.test(line)) {
        await checkOpen(line);
        continue;
      }
      const result = sh(line, work);
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      if (line.includes('gen-log')) expect(result.stdout).toMatch(/^session\.jsonl: \d+ events/);
      if (line.includes('export-html')) expect(result.stdout).toMatch(/^repro\.html: [\d.]+ KiB \(the app /);
      if (line.includes('--help')) expect(result.stdout).toMatch(/^commands:\n {2}open /m);
      if (line.includes('inspect') && line.includes('--json')) {
        // The bundle gives what the source gives.
        const expected = JSON.parse(JSON.stringify(inspect(await readLogFile(path.join(work, 'session.jsonl')))));
        expect(JSON.parse(result.stdout)).toEqual(expected);
      } else if (line.includes('whatif')) {
        // The installed command answers what the source's what-if does, with the fields docs/whatif.md names.
        const report = JSON.parse(result.stdout);
        const edits = JSON.parse(/--edits '([^']*)'/.exec(line)![1]);
        const expected = whatIf(await readLogFileText(path.join(work, 'session.jsonl')), edits, 'session.jsonl').report;
        expect(report).toEqual(JSON.parse(JSON.stringify(expected)));
        expect(report.identical).toBe(false);
        expect(report.firstDivergence).toMatchObject({ callA: expect.any(Number), callB: expect.any(Number) });
        const changed = report.calls.filter((c: { status: string }) => c.status !== 'same');
        expect(changed.length).toBeGreaterThan(0);
        for (const c of changed) expect(c).toMatchObject({ tokensBefore: expect.any(Number), tokensAfter: expect.any(Number), prefixBefore: expect.any(Number), prefixAfter: expect.any(Number) });
      } else if (line.includes('inspect')) {
        expect(result.stdout).toMatch(/^verdict {3}ok: /m);
      } else {
        await checkAgentCommand(line, result.stdout);
      }
    }
  });
});

describe('SKILL.md: the worked example, from the installed package', () => {
  it('runs each command as written and prints what the text says it prints', () => {
    const steps = skillSteps();
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const dir = fs.mkdtempSync(path.join(tmp, 'skill-'));
    for (const step of steps) {
      let result: ReturnType<typeof sh> | null = null;
      for (const line of step.commands) {
        expect(line, 'an example runs the installed command').toMatch(/^dsh-devtools /);
        result = sh(line, dir);
        expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      }
      for (const want of step.expected) expect(result!.stdout, step.commands.at(-1)).toContain(want);
    }
  });
});
