import { describe, expect, it } from 'vitest';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { matchesQuery, parseQuery } from '../../src/core/search/query.ts';
import { events, header, jsonl, userMessage, type Row } from '../helpers/log-builder.ts';

/**
 * Background jobs (docs/dsh-log-rules.md V6): 0.2.1-rc.2's job/registered and
 * job/settled are known log-only format-4 types, paired by id, on logs our
 * generator writes and on small hand-made ones.
 */
const v4 = (extra: Row = {}) => header({ version: 4, isSeeded: false, ...extra });
const withJobs = (...middle: [string, unknown, Row?][]) => jsonl([v4(), ...events(
  ['turn/start', { turn: 1 }],
  ['user/message', userMessage('u1', 'build it'), { surfaceOp: 'append' }],
  ...middle,
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
)]);
const registered = (id: string, extra: Row = {}): [string, unknown] => ['job/registered', { id, kind: 'bash', label: `run ${id}`, ...extra }];
const settled = (id: string, outcome: string, extra: Row = {}): [string, unknown] => ['job/settled', { id, outcome, ...extra }];

describe('job records: known, log-only, paired by id', () => {
  it('a registration after seq 5 and its settlement before the end: verdict ok, no partial analysis, one paired job', () => {
    const log = generateLog({ dialect: 'v4', seed: 3, turns: 5, jobs: true });
    const r = inspect(readLogText(log.text));
    expect(r.verdict).toBe('ok');
    expect(r.verdictDetail.partial).toBeNull();
    expect(r.verdictDetail.requires).toEqual({ release: '0.2.1-rc.2', because: ['job/registered', 'job/settled'] });
    expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(r.jobs.map((j) => [j.id, j.kind, j.outcome, j.runningAtEnd])).toEqual([
      ['job-dev-server', 'bash', null, true],
      ['job-review-1', 'subagent', 'completed', false],
      ['job-test-2', 'bash', 'completed', false],
      ['job-test-3', 'bash', 'failed', false],
      ['job-test-4', 'bash', 'killed', false],
      ['job-test-5', 'bash', null, true],
    ]);
    expect(r.jobs[3].detail).toBe('exit code 1: 2 tests failed');
    const review = r.jobs[1];
    expect(log.events[review.registeredSeq!].type).toBe('job/registered');
    expect(log.events[review.settledSeq!]).toMatchObject({ type: 'job/settled', data: { id: 'job-review-1' } });
    // Registered before turn 1 ended, settled in turn 2: running at turn 1's end.
    expect(review.runningAtTurnEnd).toBe(1);
    expect(r.jobs[0].runningAtTurnEnd).toBe(1);
  });

  it('the surface, messages and requests are those of the same log without the job lines', () => {
    const opts = { dialect: 'v4' as const, seed: 11, turns: 5, compactEvery: 2 };
    const plain = inspect(readLogText(generateLog(opts).text));
    const jobsLog = generateLog({ ...opts, jobs: true });
    const r = inspect(readLogText(jobsLog.text));
    expect(jobsLog.events.length).toBeGreaterThan(plain.eventCount);
    // Each seq of the job log as the seq the same event has in the log without job lines.
    const before: number[] = [];
    let jobsSoFar = 0;
    for (const e of jobsLog.events) {
      before[e.seq] = e.seq - jobsSoFar;
      if (e.type.startsWith('job/')) jobsSoFar++;
    }
    expect(r.surface.nodes.map((s) => before[s])).toEqual(plain.surface.nodes);
    expect(r.surface.replaceGeneration).toBe(plain.surface.replaceGeneration);
    expect(r.surface.contentGeneration).toBe(plain.surface.contentGeneration);
    expect(r.messages).toEqual(plain.messages);
    expect(r.requests.length).toBe(plain.requests.length);
    expect(r.requests.map((q) => q.messages)).toEqual(plain.requests.map((q) => q.messages));
    expect(r.systemPrompt.text).toBe(plain.systemPrompt.text);
    expect(r.verdict).toBe('ok');
  });

  it('a job still running at the end of the log is marked, and so is the turn whose end it outlived', () => {
    const r = inspect(readLogText(withJobs(registered('j1'), registered('j2'), settled('j2', 'failed', { detail: 'exit code 2' }))));
    expect(r.jobs).toEqual([
      { id: 'j1', kind: 'bash', label: 'run j1', registeredSeq: 2, settledSeq: null, outcome: null, detail: null, runningAtTurnEnd: 1, runningAtEnd: true, inherited: false },
      { id: 'j2', kind: 'bash', label: 'run j2', registeredSeq: 3, settledSeq: 4, outcome: 'failed', detail: 'exit code 2', runningAtTurnEnd: null, runningAtEnd: false, inherited: false },
    ]);
  });

  it('a settlement without a registration is a finding, and the job is listed from it', () => {
    const r = inspect(readLogText(withJobs(settled('ghost', 'completed'))));
    expect(r.verdict).toBe('ok');
    const finding = r.diagnostics.find((d) => d.code === 'job.unregistered');
    expect(finding).toMatchObject({ severity: 'warning', seq: 2, path: 'data.id' });
    expect(finding!.message).toMatch(/settles job ghost, which no earlier job\/registered registers/);
    expect(r.jobs).toMatchObject([{ id: 'ghost', registeredSeq: null, settledSeq: 2, outcome: 'completed', runningAtEnd: false }]);
  });

  it('a second registration or settlement of one id is a finding; the first is kept', () => {
    const r = inspect(readLogText(withJobs(registered('j1'), registered('j1', { label: 'again' }), settled('j1', 'completed'), settled('j1', 'killed'))));
    expect(r.diagnostics.filter((d) => d.code === 'job.repeated').map((d) => d.seq)).toEqual([3, 5]);
    expect(r.jobs).toMatchObject([{ id: 'j1', label: 'run j1', registeredSeq: 2, settledSeq: 4, outcome: 'completed' }]);
  });

  it('a job record without an id is refused as DSH refuses a payload it requires (V6), and pairs with nothing', () => {
    const r = inspect(readLogText(withJobs(['job/registered', { kind: 'bash' }])));
    expect(r.verdict).toBe('dsh-refuses');
    expect(r.diagnostics.find((d) => d.code === 'payload.schema')).toMatchObject({ seq: 2, path: 'data.id' });
    expect(r.jobs).toEqual([]);
  });

  it('an outcome other than completed, failed or killed is kept as logged; status is read when outcome is absent', () => {
    const r = inspect(readLogText(withJobs(registered('a'), registered('b'), ['job/settled', { id: 'a', status: 'cancelled' }], ['job/settled', { id: 'b', outcome: 'timed-out', error: 'no output for 10 min' }])));
    expect(r.jobs.map((j) => [j.outcome, j.detail])).toEqual([['cancelled', null], ['timed-out', 'no output for 10 min']]);
  });

  it('a fork child inherits the jobs running at its cut; one settles in the child', () => {
    const { parent, child } = generateFork({ dialect: 'v4', seed: 5, turns: 4, jobs: true, afterTurn: 2, childTurns: 2 });
    const p = inspect(readLogText(parent.text));
    const c = inspect(readLogText(child.text));
    expect(p.jobs.every((j) => !j.inherited)).toBe(true);
    expect(c.verdict).toBe('ok');
    const byId = new Map(c.jobs.map((j) => [j.id, j]));
    const cut = child.events.find((e) => e.type === 'session/end-seed' && e.data?.inherited === true)!.seq;
    // Running at the cut: the dev server (never settled) and turn 2's test run (settled in the child's first turn).
    expect(byId.get('job-dev-server')).toMatchObject({ inherited: true, runningAtEnd: true });
    expect(byId.get('job-test-2')).toMatchObject({ inherited: true, runningAtEnd: false });
    expect(byId.get('job-test-2')!.registeredSeq!).toBeLessThan(cut);
    expect(byId.get('job-test-2')!.settledSeq!).toBeGreaterThan(cut);
    // Settled before the cut: not inherited.
    expect(byId.get('job-review-1')).toMatchObject({ inherited: false, outcome: 'completed' });
  });

  it('only the last inherited marker is the cut: a job settled between two markers is not inherited', () => {
    const text = jsonl([v4({ isSeeded: true }), ...events(
      ['turn/start', { turn: 1 }], ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
      registered('j1'), registered('j2'),
      ['session/end-seed', { inherited: true }],
      settled('j1', 'completed'),
      ['turn/start', { turn: 2 }], ['turn/end', { turn: 2, reason: { kind: 'completed' } }],
      ['session/end-seed', { inherited: true }],
    )]);
    const r = inspect(readLogText(text));
    expect(r.jobs.map((j) => [j.id, j.inherited])).toEqual([['j1', false], ['j2', true]]);
  });

  it('a fork child re-registering its parent\'s running job (inherited: true) is the same job, no finding', () => {
    const text = jsonl([v4({ isSeeded: true }), ...events(
      ['turn/start', { turn: 1 }], registered('j1'), ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
      ['session/end-seed', { inherited: true }],
      registered('j1', { inherited: true }),
      settled('j1', 'completed'),
    )]);
    const r = inspect(readLogText(text));
    expect(r.diagnostics.filter((d) => d.code.startsWith('job.'))).toEqual([]);
    expect(r.jobs).toMatchObject([{ id: 'j1', inherited: true, registeredSeq: 1, settledSeq: 5 }]);
  });

  it('the turn end the restore appends to an interrupted turn is not one a job outlived', () => {
    const text = jsonl([v4(), ...events(['turn/start', { turn: 1 }], registered('j1'))]);
    const r = inspect(readLogText(text));
    expect(r.synthetic.some((e) => e.type === 'turn/end')).toBe(true);
    expect(r.jobs).toMatchObject([{ id: 'j1', runningAtTurnEnd: null, runningAtEnd: true }]);
  });

  it('a registration marked inherited: true is inherited', () => {
    const r = inspect(readLogText(withJobs(registered('j1', { inherited: true }))));
    expect(r.jobs[0].inherited).toBe(true);
  });

  it('format 3 does not know them: unknown, log-only, so the surface stays exact', () => {
    const text = jsonl([header({ version: 3, isSeeded: false }), ...events(['turn/start', { turn: 1 }], registered('j1'), ['turn/end', { turn: 1, reason: { kind: 'completed' } }])]);
    const r = inspect(readLogText(text));
    expect(r.verdict).toBe('newer-than-app');
    expect(r.verdictDetail.exact).toEqual(['surface and messages', 'model requests']);
  });
});

describe('searching for jobs', () => {
  const log = generateLog({ dialect: 'v4', seed: 3, turns: 3, jobs: true });
  const matching = (query: string) => log.events.filter((e) => matchesQuery(parseQuery(query), e as never, 0, new Map())).map((e) => e.seq);
  const jobSeqs = (pred: (d: any) => boolean) => log.events.filter((e) => e.type.startsWith('job/') && pred(e.data)).map((e) => e.seq);

  it('job:<id> finds both records of that job, job:<kind> the jobs of that kind, type:job the family', () => {
    expect(matching('job:job-review-1')).toEqual(jobSeqs((d) => d.id === 'job-review-1'));
    expect(matching('job:job-review-1')).toHaveLength(2);
    expect(matching('job:SUBAGENT')).toEqual(jobSeqs((d) => d.kind === 'subagent'));
    expect(matching('type:job')).toEqual(jobSeqs(() => true));
    expect(matching('job:nothing-like-it')).toEqual([]);
  });

  it('job: with words narrows further', () => {
    expect(matching('job:job-dev-server dev')).toEqual(jobSeqs((d) => d.id === 'job-dev-server'));
    expect(matching('job:job-dev-server failed')).toEqual([]);
  });
});
