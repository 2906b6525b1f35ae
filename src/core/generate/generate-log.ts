// Section ids (L…, P…, J…, V…) are those of docs/dsh-log-rules.md.
import { Rng } from './prng.ts';

/**
 * Deterministic synthetic DSH session logs (L1.5–L1.7, L2–L4, L6.4, L8;
 * P3–P7) for demos, benchmarks and tests.
 * A log is a pure function of the options: no clock, no Math.random, no I/O.
 */

export type Dialect = 'v0' | 'v4';
export interface GenerateOptions {
  dialect: Dialect;
  seed?: number; // default 1
  turns?: number; // default 6
  stepsPerTurn?: number; // model calls per turn (last one answers); default 4
  compactEvery?: number; // compact on turns divisible by this (0 = never); default 4
  packChunks?: boolean; // V0 only: pack delta runs into *-chunks rows; default true
  openLastTurn?: boolean; // end inside the last turn with an unanswered tool call
  imageOffload?: boolean; // attach a screenshot in turn 1; V4 later offloads it
  dsh021?: boolean; // V4 only: 0.2.1-alpha.2 shape (working-directory changes, a plugin record, subagent/catalog v2)
  /**
   * V4 only: 0.2.1-rc.2's background jobs (V6): registered before a turn ends, settled
   * early in the next (completed, failed, killed in turn), one left running to the end;
   * a fork child inherits the ones running at its cut. They draw no randomness, so the
   * log is the one without them plus the job lines.
   */
  jobs?: boolean;
  /**
   * A long session on a 1M-token window (docs/long-sessions.md): a 1,000,000-token context
   * window, no compaction and no tool-output pruning unless asked, so every call
   * sees the whole growing surface; 24 model calls per turn unless asked.
   */
  long?: boolean;
}

/** The context window a long session's route reports (DeepSeek's 1M-token models). */
const LONG_CONTEXT_WINDOW = 1_000_000;

/**
 * One change from model call `atCall` (1-based) on, for two runs of one seed
 * that a comparison must tell apart (docs/compare.md): a longer system prompt, the
 * other model, a different tool result just before the call, or one extra
 * failed attempt inserted before it.
 */
export interface RunVariant {
  atCall: number;
  change: 'system' | 'model' | 'tool-result' | 'extra-call';
}
export interface GenEvent {
  type: string;
  seq: number;
  time: number;
  data: any;
  sourceEventSeqs?: number[];
  surfaceOp?: 'append' | Record<string, unknown>;
  ignorable?: true;
}
export interface GeneratedLog {
  header: Record<string, unknown>;
  events: GenEvent[]; // logical events, events[i].seq === i (V0 chunk rows expanded)
  lines: string[]; // JSONL lines without '\n': header first, then one per storage record
  text: string; // every line + '\n'
}

type Json = Record<string, any>;
type Timed = { time: number; chunk: Json };
type Call = { name: string; args: Json; out: string; error?: Json; ms: number; todos?: Json[]; big?: boolean };

const PROVIDER = 'deepseek-official';
const CWD = '/home/dev/projects/acme-tools';
const CHECKPOINT =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. Treat the captured context as established background and build on it without restating it. Continue the task directly from the messages that follow, without acknowledging this checkpoint.\n\n<compacted-summary>';
const RC_PREFIX = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n';

interface Task { prompt: string; file: string; fn: string; test: string; cause: string; fix: string; expect: string }
const TASKS: Task[] = [
  { prompt: 'parseDuration("1h30m") returns NaN, it should be 5400000. Please fix it and add a regression test.', file: 'src/utils/duration.ts', fn: 'parseDuration', test: 'src/utils/duration.test.ts', cause: 'the pattern only accepts a single number-unit pair', fix: 'sum every number-unit pair found by a global regex', expect: 'expected NaN to be 5400000' },
  { prompt: 'listSessions drops the last page whenever the total is an exact multiple of the page size. Can you find the bug?', file: 'src/store/sessions.ts', fn: 'listSessions', test: 'src/store/sessions.test.ts', cause: 'the page count is computed with Math.floor(total / size)', fix: 'compute the page count with Math.ceil(total / size)', expect: 'expected 2 to be 3' },
  { prompt: 'withBackoff keeps retrying 400 responses forever. It should only retry 429 and 5xx. Please fix.', file: 'src/net/backoff.ts', fn: 'withBackoff', test: 'src/net/backoff.test.ts', cause: 'every non-2xx status is treated as retryable', fix: 'retry only on 429 or a status of 500 and above, and rethrow the rest', expect: 'expected "spy" to be called 1 times, but got 5 times' },
  { prompt: 'The CSV export breaks rows when a description contains a newline or a quote. Fix toCsvRow please.', file: 'src/export/csv.ts', fn: 'toCsvRow', test: 'src/export/csv.test.ts', cause: 'fields are joined with commas without any quoting', fix: 'quote fields that contain commas, quotes or newlines and double embedded quotes', expect: "expected 'a,b\\nc' to be 'a,\"b\\nc\"'" },
  { prompt: 'formatBytes(1536) prints "1536 B" instead of "1.5 KiB". Can you fix the unit selection?', file: 'src/utils/format.ts', fn: 'formatBytes', test: 'src/utils/format.test.ts', cause: 'the loop compares against 1000 but divides by 1024', fix: 'compare and divide by the same 1024 base', expect: "expected '1536 B' to be '1.5 KiB'" },
  { prompt: 'loadConfig crashes with "Unexpected end of JSON input" when ~/.apprc is empty. It should fall back to the defaults.', file: 'src/config/load.ts', fn: 'loadConfig', test: 'src/config/load.test.ts', cause: 'an empty file is passed straight to JSON.parse', fix: 'treat a blank file as an empty object before merging the defaults', expect: 'SyntaxError: Unexpected end of JSON input' },
];
const HELPERS = ['normalize', 'clamp', 'toKey', 'isBlank', 'assertNever', 'splitOnce', 'memo', 'readEnv'];

const TOOL_DEFS: Record<string, [string, Record<string, string>]> = {
  apply_patch: ['Apply a patch in the "*** Begin Patch" format to one or more files in the workspace.', { patch: 'The full patch text.' }],
  bash: ['Run a bash command and return its stdout/stderr. Each call runs in a fresh shell; non-zero exits are reported as `[exit code: N]`.', { command: 'The bash command to execute.', description: 'What the command does, in 5-10 words.' }],
  read_file: ['Read a UTF-8 text file. Results include line numbers; use offset and limit to continue reading large files.', { path: 'File path, relative to the workspace.' }],
  todo_write: ['Replace the session todo list. Keep exactly one item in_progress while working.', { todos: 'The complete todo list.' }],
  web_fetch: ['Fetch a URL and return its content as markdown.', { url: 'The absolute URL to fetch.' }],
};
const toolSchema = (name: string): Json => {
  const [description, props] = TOOL_DEFS[name];
  const properties = Object.fromEntries(Object.entries(props).map(([k, d]) => [k, k === 'todos' ? { type: 'array', description: d, items: { type: 'object' } } : { type: 'string', description: d }]));
  return { name, description, parameters: { type: 'object', properties, required: Object.keys(props) } };
};
const systemPrompt = (model: string, tools: string[]) =>
  ['You are an AI agent powered by DeepSeek Harness.', `You are dsh, a coding assistant powered by the ${model} model.`, 'Verify your work by running the code or tests. Keep answers brief and factual.', ...tools.map((t) => `Use ${t}: ${TOOL_DEFS[t][0]}`)].join('\n\n');

const tok = (s: string) => Math.ceil(s.length / 4);
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
/** Model-like tokens: a word piece with its leading whitespace; tokens always join back to the text. */
const tokenize = (s: string) => s.match(/\s*[A-Za-z]{1,7}|\s*\d{1,3}|\s*[^\sA-Za-z\d]|\s+/g) ?? [s];
/** Arguments spelled the way DeepSeek emits them (`{"a": 1, "b": [2]}`), not JSON.stringify's compact form. */
const modelJson = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(modelJson).join(', ')}]`
  : v && typeof v === 'object' ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${modelJson(x)}`).join(', ')}}`
  : JSON.stringify(v);

/** Key of a delta run: consecutive deltas with equal keys may share one packed row / stream record. */
function runKey(c: Json): string {
  if (c.type === 'text-delta' || c.type === 'reasoning-delta') return `${c.type.split('-')[0]}-chunks|${c.index}`;
  if (c.type === 'tool-call-delta') return `tool-call-chunks|${c.index}|${c.id}|${c.name}`;
  return '';
}
function groupRuns(timed: Timed[]): Timed[][] {
  const runs: Timed[][] = [];
  for (const t of timed) {
    const prev = runs[runs.length - 1];
    const key = runKey(t.chunk);
    if (key && prev && runKey(prev[0].chunk) === key) prev.push(t);
    else runs.push([t]);
  }
  return runs;
}
/** Shared body of a V0 packed row and a V4 stream record for one delta run. */
function runBody(run: Timed[]): Json {
  const c = run[0].chunk;
  const dt = run.slice(1).map((t, k) => t.time - run[k].time);
  if (c.type === 'tool-call-delta') return { index: c.index, dt, id: c.id, name: c.name, args: run.map((t) => t.chunk.argumentsDelta) };
  return { index: c.index, dt, texts: run.map((t) => t.chunk.text) };
}

/** Where a subagent fork leaves its parent: after a closed turn (rc.8 forks only outside a turn, L1.7). */
interface ForkPlan {
  afterTurn: number;
  /** The child's own turns after the inherited prefix. */
  turns: number;
  seed: number;
}

class Generator {
  rng: Rng;
  /** Set when this run is the child of a fork: it replays the parent's first turns, then diverges. */
  fork: ForkPlan | null = null;
  readonly v4: boolean;
  readonly o: Required<GenerateOptions>;
  time: number;
  events: GenEvent[] = [];
  records: Json[] = [];
  /** Streaming mode: each record goes out as a JSONL line and no event is kept (a log of any size). */
  sink: ((line: string) => void) | null = null;
  seqCount = 0;
  /** Streaming mode keeps only what it may look back at: prunable results by seq. */
  bigEvents = new Map<number, GenEvent>();
  lastEmitted: GenEvent | null = null;
  // Surface mirror (L4): node seqs in order, live set and a token estimate per node.
  nodes: number[] = [];
  live = new Set<number>();
  nodeTok = new Map<number, number>();
  ctxTok = 0;
  gen = 0; // contentGeneration (V4); counts replaces + projections
  genAtRequest = 0;
  cachedTok = 0; // prompt prefix the provider can serve from cache
  // Request state (P6).
  model = 'deepseek-v4-flash';
  tools = ['apply_patch', 'bash', 'read_file', 'todo_write'];
  lastHeader?: { json: string; names: string[] };
  lastContext = '';
  headSeq = -1; // V4 system head (node 0)
  headText = '';
  mode = 'workspace-write';
  retained: { seq: number; text: string } | null | undefined = undefined; // runtime-context projection P4.1
  bigResults: number[] = []; // prunable read_file results
  imageSeq = -1;
  done: string[] = [];
  // 0.2.1-alpha.2 shape (V4.3–V4.4).
  readonly dsh021: boolean;
  cwd = CWD;
  cwdRecorded = false;
  /** Working-directory notices queued for the next turn, appended before its prompt. */
  notices: Json[] = [];
  // 0.2.1-rc.2 background jobs (V6): the ones registered and not yet settled.
  readonly jobs: boolean;
  runningJobs: { id: string; kind: string }[] = [];
  // Run variants (docs/compare.md): model calls made so far, and the change to make.
  callsMade = 0;
  variant: RunVariant | null = null;

  constructor(opts: GenerateOptions) {
    const long = opts.long === true;
    this.o = { seed: 1, turns: 6, stepsPerTurn: long ? 24 : 4, compactEvery: long ? 0 : 4, packChunks: true, openLastTurn: false, imageOffload: false, dsh021: false, jobs: false, long, ...opts };
    this.v4 = opts.dialect === 'v4';
    this.dsh021 = this.v4 && this.o.dsh021;
    this.jobs = this.v4 && this.o.jobs === true;
    this.rng = new Rng(this.o.seed);
    this.time = 1_788_000_000_000 + this.rng.int(0, 86_400_000);
  }

  emit(type: string, data: Json, op?: GenEvent['surfaceOp'], sources?: number[]): number {
    this.time += this.rng.int(0, 3);
    const ev: GenEvent = { type, seq: this.seqCount++, time: this.time, data };
    if (sources) ev.sourceEventSeqs = sources;
    if (op) ev.surfaceOp = op;
    if (!this.sink) this.events.push(ev);
    this.lastEmitted = ev;
    this.record(ev);
    return ev.seq;
  }
  record(r: Json): void {
    if (this.sink) this.sink(JSON.stringify(r));
    else this.records.push(r);
  }
  append(type: string, data: Json, tokens: number, sources?: number[]): number {
    const seq = this.emit(type, data, 'append', sources);
    this.nodes.push(seq);
    this.live.add(seq);
    this.nodeTok.set(seq, tokens);
    this.ctxTok += tokens;
    return seq;
  }
  /** Replace nodes[i..j] (surface order, inclusive); cites `cite` plus every shadowed node. */
  replace(type: string, data: Json, i: number, j: number, tokens: number, cite: number[] = []): number {
    const shadowed = this.nodes.slice(i, j + 1);
    const [s, e] = [this.nodes[i], this.nodes[j]];
    const op = this.v4 ? { op: 'replace', startSeq: s, endSeq: e } : { op: 'replace', start: s, end: e };
    const seq = this.emit(type, data, op, [...cite, ...shadowed]);
    this.nodes.splice(i, j - i + 1, seq);
    for (const x of shadowed) {
      this.live.delete(x);
      this.ctxTok -= this.nodeTok.get(x) ?? 0;
      this.nodeTok.delete(x);
    }
    this.live.add(seq);
    this.nodeTok.set(seq, tokens);
    this.ctxTok += tokens;
    this.gen++;
    // The provider cache only survives up to the first rewritten node.
    this.cachedTok = Math.min(this.cachedTok, this.nodes.slice(0, i).reduce((a, n) => a + (this.nodeTok.get(n) ?? 0), 0));
    if (this.retained && shadowed.includes(this.retained.seq)) this.retained = null;
    return seq;
  }

  /** Timed raw chunks of one successful model attempt (L1.6, StreamChunk). */
  stream(blocks: Json[], finish: Json): Timed[] {
    const out: Timed[] = [];
    let t = this.time + this.rng.int(400, 2500);
    const at = (chunk: Json) => out.push({ time: t, chunk });
    let outTok = 0;
    let reasonTok = 0;
    blocks.forEach((b, index) => {
      at({ type: 'block-start', index, blockType: b.type });
      for (const piece of tokenize(b.type === 'tool-call' ? b.arguments : b.text)) {
        t += this.rng.chance(0.6) ? this.rng.int(0, 1) : this.rng.int(15, 45);
        at(b.type === 'tool-call' ? { type: 'tool-call-delta', index, id: b.id, name: b.name, argumentsDelta: piece } : { type: `${b.type}-delta`, index, text: piece });
        outTok++;
        if (b.type === 'reasoning') reasonTok++;
      }
    });
    blocks.forEach((block, index) => at({ type: 'block-end', index, block }));
    const total = 1800 + this.ctxTok;
    const cached = Math.floor(Math.min(this.cachedTok, total) / 64) * 64;
    this.cachedTok = total + outTok;
    at({ type: 'usage', usage: { inputTokens: total - cached, outputTokens: outTok, cacheReadTokens: cached, reasoningTokens: reasonTok } });
    at({ type: 'finish', reason: finish });
    return out;
  }
  /** Log a stream: V0 as assistant/chunk events (packed runs ≥3), V4 as embedded records. */
  logStream(turn: number, step: number, timed: Timed[]): { seqs: number[]; stream: Json[] } {
    const seqs: number[] = [];
    const stream: Json[] = [];
    for (const run of groupRuns(timed)) {
      const kind = runKey(run[0].chunk).split('|')[0];
      if (this.v4) {
        stream.push(kind ? { type: kind, time0: run[0].time, ...runBody(run) } : { type: 'chunk', time: run[0].time, chunk: run[0].chunk });
        continue;
      }
      const first = this.seqCount;
      const members: GenEvent[] = [];
      for (const t of run) {
        const ev: GenEvent = { type: 'assistant/chunk', seq: this.seqCount++, time: t.time, data: { turn, step, chunk: t.chunk } };
        if (!this.sink) this.events.push(ev);
        members.push(ev);
        seqs.push(ev.seq);
      }
      if (kind && this.o.packChunks && run.length >= 3) this.record({ type: kind, seq0: first, time0: run[0].time, data: { turn, step, ...runBody(run) } });
      else for (const m of members) this.record(m);
    }
    this.time = Math.max(this.time, timed[timed.length - 1].time);
    return { seqs, stream };
  }

  reply(turn: number, step: number, blocks: Json[], finish: Json): number {
    this.callsMade++;
    const timed = this.stream(blocks, finish);
    const usage = timed[timed.length - 2].chunk.usage;
    const { seqs, stream } = this.logStream(turn, step, timed);
    const message = { id: this.rng.uuid(), role: 'assistant', content: blocks, source: { kind: 'model', provider: PROVIDER, model: this.model } };
    const tokens = usage.outputTokens;
    return this.v4 ? this.append('assistant/message', { turn, step, message, usage, stream }, tokens) : this.append('assistant/message', { turn, step, message, usage }, tokens, seqs);
  }
  /** A settled attempt that produced no message: maybe a few deltas, then an error finish. */
  failedAttempt(turn: number, step: number, failure: Json): void {
    this.callsMade++;
    let t = this.time + this.rng.int(200, 3000);
    const timed: Timed[] = [];
    if (failure.code === 'SERVER') {
      timed.push({ time: t, chunk: { type: 'block-start', index: 0, blockType: 'reasoning' } });
      for (const text of tokenize('Let me look at the failing')) timed.push({ time: (t += this.rng.int(0, 30)), chunk: { type: 'reasoning-delta', index: 0, text } });
    }
    timed.push({ time: t + 5, chunk: { type: 'finish', reason: { kind: 'error', failure } } });
    const { stream } = this.logStream(turn, step, timed);
    if (this.v4) this.emit('assistant/attempt', { turn, step, stream });
  }

  /** Per-attempt request preparation: V4 system reconcile, user batch, header/developer/context. */
  beginRequest(turn: number, step: number, prompt?: Json): void {
    this.variantModel();
    this.recordWorkingDirectory();
    if (this.v4) {
      const text = this.promptText();
      const sys = (t: string) => ({ turn, step, message: { id: this.rng.uuid(), role: 'system', content: [{ type: 'text', text: t }], source: { kind: 'system-prompt' } } });
      if (this.headSeq < 0) this.headSeq = this.append('system/message', sys(text), tok(text));
      else if (text !== this.headText) this.headSeq = this.replace('system/message', sys(text), 0, 0, tok(text)); // head rule L4.5
      this.headText = text;
    }
    if (prompt) {
      for (const notice of this.notices.splice(0)) this.append('user/message', notice, tok(notice.content[0].text));
      const seq = this.append('user/message', prompt, tok(prompt.content[0].text) + (prompt.content.length > 1 ? 800 : 0));
      if (prompt.content.length > 1) this.imageSeq = seq;
      this.runtimeContext();
      if (turn === 1) this.emit('session/title', { title: prompt.content[0].text.slice(0, 40).replace(/\s+\S*$/, ''), messageSeqs: [seq], source: { kind: 'fallback' } });
    } else this.runtimeContext();
    this.logHeader(turn, step);
  }
  /** Re-emit the runtime-context snapshot when its text changed or the retained one was shadowed. */
  runtimeContext(): void {
    const full = this.mode === 'danger-full-access';
    const sections = [
      ...(this.v4 ? [{ name: 'working-directory:current', text: `Current working directory: "${this.cwd}".` }] : []),
      { name: 'sandbox:policy', text: full ? 'Current DSH file policy: danger-full-access. The DSH file sandbox does not restrict file modifications by available operations.' : `Current DSH file policy: workspace-write. Any available operation enforced by the DSH file sandbox may modify files under the session workspace: "${CWD}".` },
      { name: 'approval:policy', text: full ? 'Approval prompts are disabled in this session: actions that require approval are rejected automatically.' : 'Approval policy: ask. Operations that require approval may ask through the configured answerer.' },
    ];
    const text = RC_PREFIX + sections.map((s) => s.text).join('\n\n');
    if (this.retained?.text === text) return;
    const source = this.v4 ? { kind: 'runtime-context', form: 'snapshot', sections } : { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot', sections };
    const seq = this.append('user/message', { id: this.rng.uuid(), role: 'user', content: [{ type: 'text', text }], source }, tok(text));
    this.retained = { seq, text };
  }
  logHeader(turn: number, step: number): void {
    const header: Json = { config: { provider: PROVIDER, model: this.model } };
    if (!this.v4) header.system = this.promptText();
    header.tools = this.tools.map(toolSchema);
    const json = JSON.stringify(header);
    const series = this.v4 && this.gen !== this.genAtRequest; // history rewritten since the last request
    const prev = this.lastHeader;
    const reason = !prev ? 'initial' : json !== prev.json ? 'change' : series ? 'series' : undefined;
    if (reason) {
      const seq = this.emit('request/header', series && reason !== 'series' ? { header, reason, startsSeries: true } : { header, reason });
      const added = prev ? this.tools.filter((n) => !prev.names.includes(n)) : [];
      const removed = prev ? prev.names.filter((n) => !this.tools.includes(n)) : [];
      if (this.v4 && reason !== 'series' && added.length + removed.length > 0) {
        const content = [...added.map((toolName) => ({ type: 'tool-addition', toolName })), ...removed.map((toolName) => ({ type: 'tool-removal', toolName }))];
        const message = { id: this.rng.uuid(), role: 'developer', source: { kind: 'tool-registry' }, content };
        this.append('developer/message', added.length ? { turn, step, message, headerSeq: seq } : { turn, step, message }, 10);
      }
      this.lastHeader = { json, names: [...this.tools] };
    }
    const ctx = { provider: PROVIDER, model: this.model, contextWindow: this.o.long ? LONG_CONTEXT_WINDOW : 128000 };
    if (JSON.stringify(ctx) !== this.lastContext) this.emit('request/context', ctx);
    this.lastContext = JSON.stringify(ctx);
    this.genAtRequest = this.gen;
  }

  toolResult(turn: number, step: number, callId: string, text: string, error?: Json): Json {
    const content = [{ type: 'text', text }];
    const isError = error !== undefined;
    const message = this.v4
      ? { id: this.rng.uuid(), role: 'tool', toolCallId: callId, content, isError, source: { kind: 'tool', callId } }
      : { id: this.rng.uuid(), role: 'user', content: [{ type: 'tool-result', toolCallId: callId, content, isError }], source: { kind: 'tool', callId } };
    return error ? { turn, step, message, error } : { turn, step, message };
  }
  /** Pre-step maintenance: prune an old big tool output (L4.4) or offload the screenshot (L6.4). */
  maintain(turnStartSeq: number): void {
    if (this.v4 && this.imageSeq >= 0 && this.live.has(this.imageSeq) && turnStartSeq > this.imageSeq) {
      this.emit('image/offload', { targets: [{ seq: this.imageSeq, imageIndexes: [0] }] });
      this.imageSeq = -1;
      this.gen++;
      this.cachedTok = 0;
    }
    // A long session keeps every tool output (its window is large); others prune one now and then.
    if (this.o.long || !this.rng.chance(0.08)) return;
    const candidates = (this.bigResults = this.bigResults.filter((s) => this.live.has(s) || void this.bigEvents.delete(s))).filter((s) => s < turnStartSeq);
    if (candidates.length === 0) return;
    const target = this.rng.pick(candidates);
    this.bigResults = this.bigResults.filter((s) => s !== target);
    const data = JSON.parse(JSON.stringify((this.sink ? this.bigEvents.get(target)! : this.events[target]).data));
    this.bigEvents.delete(target);
    const old = this.v4 ? data.message.content : data.message.content[0].content;
    const lines = old[0].text.split('\n').length;
    const pruned = [{ type: 'text', text: `[Tool output pruned to save context: ${lines} lines. Re-run the tool if you need it again.]` }];
    if (this.v4) data.message.content = pruned;
    else data.message.content[0].content = pruned;
    const tokens = this.nodeTok.get(target) ?? 0;
    const prune = this.emit('compaction/prune', { shadowedRange: { start: target, end: target }, shadowedSeqs: [target], shadowedTokenCount: tokens });
    const i = this.nodes.indexOf(target);
    this.replace('tool/result', data, i, i, tok(pruned[0].text), [prune]);
  }
  /** Summarise every node before this turn into one checkpoint (never the V4 system head). */
  compact(turn: number, turnStartLen: number): void {
    const lo = this.v4 ? 1 : 0;
    const hi = turnStartLen - 1;
    if (hi < lo) return;
    const compactionId = this.rng.uuid();
    const start = this.emit('compaction/start', { compactionId, turn });
    const shadowedSeqs = this.nodes.slice(lo, hi + 1);
    const shadowedTokenCount = shadowedSeqs.reduce((a, n) => a + (this.nodeTok.get(n) ?? 0), 0);
    const text = `The user is working in ${CWD} and asked for a series of bug fixes. Completed so far: ${this.done.join('; ') || 'investigation only'}. Each fix was applied with apply_patch and verified with npx vitest run; the targeted tests pass. Continue with the current request.`;
    const summary = [{ type: 'text', text }];
    this.time += this.rng.int(2000, 9000);
    const summarySeq = this.emit('compaction/summary', { compactionId, summary, rawOutput: summary, llmStreamCall: true, shadowedRange: { start: this.nodes[lo], end: this.nodes[hi] }, shadowedSeqs, shadowedTokenCount, provider: PROVIDER, model: this.model, maxTokens: 4096, usage: { inputTokens: shadowedTokenCount, outputTokens: tok(text) } });
    const source = this.v4 ? { kind: 'compact-checkpoint', compactionId } : { kind: 'plugin', plugin: 'compact', compactionId };
    const message = { id: this.rng.uuid(), role: 'user', content: [{ type: 'text', text: CHECKPOINT }, ...summary, { type: 'text', text: '</compacted-summary>' }], source };
    this.replace('user/message', message, lo, hi, tok(text) + 60, [start, summarySeq]);
    this.emit('compaction/end', { compactionId, turn });
  }

  /** Tool calls for tool step `s` of `k` in a bug-fix turn: search → read → reproduce → patch → verify. */
  calls(task: Task, s: number, k: number): { thought: string; say?: string; calls: Call[] } {
    // Short turns keep the most telling actions; long turns cycle through all five.
    const order = k >= 5 ? [0, 1, 2, 3, 4] : [[1], [1], [1, 3], [1, 3, 4], [1, 2, 3, 4]][k];
    const plan = this.action(task, order[(s - 1) % order.length]);
    if (s === 1 && k >= 3) plan.calls.unshift(this.todoCall(task, 0));
    if (k < 3) plan.calls = plan.calls.filter((c) => c.name !== 'todo_write'); // no list to update
    return plan;
  }
  /** A todo_write call with the first `k` items completed and item `k` in progress. */
  todoCall(task: Task, k: number): Call {
    const todos = [`Reproduce the ${task.fn} bug`, `Fix ${task.fn} in ${task.file}`, 'Add a regression test and run the suite'].map((content, i) => ({ content, status: i < k ? 'completed' : i === k ? 'in_progress' : 'pending' }));
    return { name: 'todo_write', args: { todos }, todos, out: `Updated todo list: ${2 - k} pending, 1 in progress, ${k} completed.`, ms: this.rng.int(1, 5) };
  }
  action(task: Task, action: number): { thought: string; say?: string; calls: Call[] } {
    const r = this.rng;
    const testCmd = { command: `npx vitest run ${task.test}`, description: `Run the ${task.fn} tests` };
    const n = r.int(4, 9);
    switch (action) {
      case 0: {
        const calls: Call[] = [{ name: 'bash', args: { command: `rg -n "${task.fn}" src`, description: `Find usages of ${task.fn}` }, out: `${task.file}:${r.int(8, 30)}:export function ${task.fn}(input: string) {\n${task.test}:3:import { ${task.fn} } from './${task.file.split('/').pop()!.replace('.ts', '.js')}';\nsrc/cli/main.ts:${r.int(40, 200)}:    const value = ${task.fn}(argv.value);\n`, ms: r.int(20, 120) }];
        if (this.tools.includes('web_fetch') && r.chance(0.3)) calls.push({ name: 'web_fetch', args: { url: `https://developer.mozilla.org/en-US/search?q=${task.fn}` }, out: `# Search results\n\nNo exact match for "${task.fn}". Related: RegExp.prototype.exec, Math.ceil, JSON.parse.\n`, ms: r.int(300, 1500) });
        return { thought: `The user says ${task.fn} is broken. I should find where it is defined and how it is used before changing anything.`, say: r.chance(0.5) ? `I'll start by locating \`${task.fn}\`.` : undefined, calls };
      }
      case 1: {
        if (r.chance(0.08)) {
          const path = task.file.replace('.ts', 's.ts');
          return { thought: `Let me read the implementation of ${task.fn}.`, calls: [{ name: 'read_file', args: { path }, out: `Error: cannot read "${CWD}/${path}": not found`, error: { name: 'FsError', code: 'FS_NOT_FOUND' }, ms: r.int(1, 4) }] };
        }
        return { thought: `${task.fn} is defined in ${task.file}. Let me read the implementation to see how it handles this input.`, calls: [{ name: 'read_file', args: { path: task.file }, out: this.source(task), ms: r.int(2, 20), big: true }] };
      }
      case 2:
        return { thought: `I think I see it: ${task.cause}. Before changing anything, let me reproduce the failure with the existing tests.`, calls: [{ name: 'bash', args: testCmd, out: ` RUN  v4.1.12 ${CWD}\n\n ❯ ${task.test} (${n} tests | 1 failed) ${r.int(5, 60)}ms\n   × ${task.fn} > handles the reported case ${r.int(1, 9)}ms\n     → ${task.expect}\n\n Test Files  1 failed (1)\n      Tests  1 failed | ${n - 1} passed (${n})\n\n[exit code: 1]\n`, ms: r.int(800, 4000) }] };
      case 3: {
        const patch = `*** Begin Patch\n*** Update File: ${task.file}\n@@ export function ${task.fn}\n-  // TODO: ${task.cause}\n+  // Fixed: ${task.fix}\n*** Update File: ${task.test}\n@@\n+  it('handles the reported case', () => {\n+    expect(${task.fn}(input)).toEqual(expected);\n+  });\n*** End Patch`;
        return { thought: `That explains the bug: ${task.cause}. The fix is to ${task.fix}. I'll also add a regression test for the reported case.`, calls: [{ name: 'apply_patch', args: { patch }, out: `Success. Updated the following files:\nM ${task.file}\nM ${task.test}\n`, ms: r.int(5, 40) }, this.todoCall(task, 2)] };
      }
      default:
        return { thought: 'Patch applied. Run the tests again to make sure the fix works and nothing else broke.', calls: [{ name: 'bash', args: testCmd, out: ` RUN  v4.1.12 ${CWD}\n\n ✓ ${task.test} (${n + 1} tests) ${r.int(5, 60)}ms\n\n Test Files  1 passed (1)\n      Tests  ${n + 1} passed (${n + 1})\n`, ms: r.int(800, 4000) }] };
    }
  }
  /** A plausible TypeScript file, numbered like a read tool result. */
  source(task: Task): string {
    const lines = [`// ${task.file}`, '', `import { ${this.rng.pick(HELPERS)} } from './internal.js';`, ''];
    for (let h = this.rng.int(2, 5); h > 0; h--) {
      const name = this.rng.pick(HELPERS) + h;
      lines.push(`function ${name}(value: string): string {`, '  if (value.length === 0) return value;', `  return value.trim();`, '}', '');
    }
    lines.push(`export function ${task.fn}(input: string) {`, `  // TODO: ${task.cause}`, '  const parts = input.split(",");', '  const result = parts.map((p) => p.trim());', '  return result.length === 1 ? result[0] : result;', '}', '');
    return lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n') + '\n';
  }

  run(): GeneratedLog {
    const { turns, compactEvery } = this.o;
    const steps = Math.max(1, this.o.stepsPerTurn); // a turn needs at least the answering step
    const header: Json = this.v4
      ? { type: 'session', version: 4, id: this.rng.uuid(), createdAt: this.time, cwd: CWD, isSeeded: false, delegationDepth: 0 }
      : { type: 'session', version: 0, id: this.rng.uuid(), createdAt: this.time, cwd: CWD, delegationDepth: 0 };
    // An SDK session with no project directory: the directory is recorded at the first request (V4.4).
    if (this.dsh021) delete header.cwd;
    // Streaming: the header line goes first (a fork child rewrites its header later, so forks do not stream).
    if (this.sink) {
      if (this.fork) throw new Error('a fork child cannot be streamed');
      this.sink(JSON.stringify(header));
    }
    this.emit('permission/preset', { preset: this.mode });
    this.emit('sandbox/mode', { mode: this.mode });
    this.emit('approval/policy', { policy: 'ask' });
    // A session goal (J4.2: goal/change snapshots), completed when the last turn ends.
    const goal = { id: `goal-${String(header.id)}`, revision: 1, objective: 'Fix the reported bugs and keep the test suite green', phase: 'active', maxGoalRounds: 3 };
    const goalChange = (operation: string, g: Json, roundsStarted: number) => this.emit('goal/change', { kind: 'goal/change', version: 1, operation, goal: g, roundsStarted, createdAt: header.createdAt, updatedAt: this.time });
    goalChange('create', goal, 0);
    const modelTurn = turns >= 3 ? this.rng.int(2, turns) : 0;
    const toolTurn = turns >= 3 ? this.rng.int(2, turns) : 0;
    const taskBase = this.rng.int(0, TASKS.length - 1);
    const retryTurn = this.rng.int(1, turns); // at least one retried request per log, more by chance
    // A fork child plays the parent's turns up to the cut with the parent's randomness, then its own.
    const lastTurn = this.fork ? this.fork.afterTurn + this.fork.turns : turns;
    for (let turn = 1; turn <= lastTurn; turn++) {
      if (this.fork && turn === this.fork.afterTurn + 1) this.beginChild(header);
      const task = TASKS[(taskBase + turn) % TASKS.length];
      const open = turn === lastTurn && this.o.openLastTurn;
      if (turn > 1) this.time += this.rng.int(20_000, 180_000); // the human reads and types
      if (turn > 1 && this.rng.chance(0.15)) {
        this.mode = this.mode === 'workspace-write' ? 'danger-full-access' : 'workspace-write';
        this.emit('permission/preset', { preset: this.mode });
        this.emit('sandbox/mode', { mode: this.mode });
      }
      if (turn === modelTurn) {
        this.model = this.model === 'deepseek-v4-flash' ? 'deepseek-v4-pro' : 'deepseek-v4-flash';
        // rc.8 has no model/selection type (L3.3 "v0+"): its logs show the switch only in the header.
        if (this.v4) this.emit('model/selection', { provider: PROVIDER, model: this.model });
      }
      if (turn === toolTurn) this.tools = [...this.tools, 'web_fetch'].sort(); // e.g. a plugin came online
      const content: Json[] = [{ type: 'text', text: turn === 1 || this.rng.chance(0.6) ? task.prompt : `Thanks. Next one: ${task.prompt}` }];
      if (turn === 1 && this.o.imageOffload) content.push({ type: 'image', attachment: { attachmentId: `sha256:${this.rng.hex(64)}`, mediaType: 'image/png', bytes: this.rng.int(40_000, 400_000), width: 1280, height: 800, name: 'failing-test.png' } });
      const prompt = { id: this.rng.uuid(), role: 'user', content, source: this.dsh021 ? { kind: 'user', rpcId: `rpc-${turn}` } : { kind: 'user' } };
      if (this.dsh021 && turn % 3 === 2) this.changeDirectory(turn % 2 === 0 ? `${CWD}/packages/cli` : CWD);
      const queued = this.notices.length;
      this.emit('agent/inbox/spliced', { target: 'next-turn', start: queued, inserted: [prompt] });
      const turnStartSeq = this.emit('turn/start', { turn });
      if (this.jobs) this.settleJobs(turn);
      this.emit('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: queued + 1, inserted: [] });
      const turnStartLen = this.nodes.length;
      for (let step = 1; step <= steps; step++) {
        this.emit('step/start', { turn, step });
        this.maintain(turnStartSeq);
        this.beginRequest(turn, step, step === 1 ? prompt : undefined);
        this.variantAttempt(turn, step);
        if (compactEvery > 0 && turn > 1 && turn % compactEvery === 0 && step === Math.min(2, steps)) {
          // Overflow recovery: the request fails, compaction rewrites history, the same step retries.
          this.failedAttempt(turn, step, { message: 'request exceeded the model context window', code: 'CONTEXT_WINDOW_EXCEEDED' });
          this.compact(turn, turnStartLen);
          this.logHeader(turn, step);
        } else if ((turn === retryTurn && step === 1) || this.rng.chance(0.04)) {
          const failure = this.rng.pick([{ message: 'model returned a completed response with no content', code: 'EMPTY_RESPONSE' }, { message: '503 upstream overloaded', code: 'SERVER' }, { message: '429 rate limit reached', code: 'RATE_LIMIT' }]);
          this.failedAttempt(turn, step, failure);
          const retryId = this.rng.uuid();
          const delayMs = this.rng.int(500, 4000);
          this.emit('llm/retry', { retryId, turn, step, provider: PROVIDER, mode: 'normal', policyKey: '["normal",2,["EMPTY_RESPONSE","RATE_LIMIT","SERVER","TIMEOUT","TRANSPORT"],1,1,0]', retry: 1, maxRetries: 2, delayMs, failure });
          this.time += delayMs;
          this.emit('llm/retry-started', { retryId, turn, step, retry: 1 });
          this.logHeader(turn, step);
        }
        if (step === steps && !open) {
          const n = this.rng.int(5, 12);
          const say = `Fixed \`${task.fn}\` in \`${task.file}\`.\n\n**Cause:** ${cap(task.cause)}.\n**Fix:** ${cap(task.fix)}.\n\nI added a regression test to \`${task.test}\`; \`npx vitest run ${task.test}\` now passes (${n} tests).`;
          this.reply(turn, step, [{ type: 'reasoning', text: `All ${n} tests pass. Summarize the change for the user.` }, { type: 'text', text: say }], { kind: 'stop' });
          this.emit('step/end', { turn, step });
          break;
        }
        const plan = this.calls(task, step, open ? steps : steps - 1);
        const calls = plan.calls.map((c, i) => ({ ...c, id: this.rng.callId(i), arguments: modelJson(c.args) }));
        const blocks: Json[] = [{ type: 'reasoning', text: plan.thought }, ...(plan.say ? [{ type: 'text', text: plan.say }] : []), ...calls.map((c) => ({ type: 'tool-call', id: c.id, name: c.name, arguments: c.arguments }))];
        this.reply(turn, step, blocks, { kind: 'tool-calls' });
        if (open && step === steps) {
          // Crash while the tools run: calls started, no results, no step/turn end (L8 closers pending).
          for (const c of calls) this.emit('tool/call', { turn, step, callId: c.id, name: c.name, arguments: c.arguments });
          return this.finish(header);
        }
        for (const c of calls) {
          const callSeq = this.emit('tool/call', { turn, step, callId: c.id, name: c.name, arguments: c.arguments });
          if (c.todos) this.emit('todo/write', { todos: c.todos });
          this.time += c.ms;
          const out = this.variantOutput(c.out);
          const seq = this.append('tool/result', this.toolResult(turn, step, c.id, out, c.error), tok(out), [callSeq]);
          if (c.big) {
            this.bigResults.push(seq);
            if (this.sink) this.bigEvents.set(seq, this.lastEmitted!);
          }
        }
        this.emit('step/end', { turn, step });
      }
      if (!open) {
        if (this.jobs) this.registerJobs(turn);
        this.emit('turn/end', { turn, reason: { kind: 'completed' } });
        this.done.push(`${task.fn} (${task.file}): ${task.fix}`);
        if (this.dsh021 && turn === 1) this.afterFirstTurn();
        if (turn === lastTurn) goalChange('complete', { ...goal, revision: 2, phase: 'complete' }, 0);
      }
    }
    return this.finish(header);
  }
  /**
   * The fork cut (L1.7): the events so far are the inherited prefix; the
   * child's header names its parent and the marker at seq N ends the seed.
   */
  beginChild(header: Json): void {
    const fork = this.fork!;
    const inherited = this.seqCount;
    this.rng = new Rng(fork.seed);
    const parentId = header.id;
    header.id = this.rng.uuid();
    header.createdAt = this.time;
    header.parentSession = parentId;
    header.origin = 'subagent';
    header.delegationDepth = 1;
    if (this.v4) header.isSeeded = true;
    else header.seedLength = inherited;
    this.emit('session/end-seed', this.v4 ? { inherited: true } : {});
  }

  // ————— 0.2.1-alpha.2 shape (V4.3–V4.4), only with the dsh021 option

  /** ensure(): a session whose header has no cwd records its directory at the first prompt assembly, with no notice (V4.4). */
  recordWorkingDirectory(): void {
    if (!this.dsh021 || this.cwdRecorded) return;
    this.cwdRecorded = true;
    this.emit('working-directory/change', { cwd: this.cwd });
  }
  /** A real change (the SDK setter) between turns: the event, then its notice queued in the inbox (V4.4). */
  changeDirectory(to: string): void {
    const from = this.cwd;
    this.cwd = to;
    this.emit('working-directory/change', { cwd: to });
    const notice = { id: this.rng.uuid(), role: 'user', content: [{ type: 'text', text: `The working directory changed from ${JSON.stringify(from)} to ${JSON.stringify(to)}.` }], source: { kind: 'working-directory' } };
    this.emit('agent/inbox/spliced', { target: 'next-turn', start: this.notices.length, inserted: [notice] });
    this.notices.push(notice);
  }
  /** A plugin record (V4.3): log-only, `ignorable: true`, never surface fields. */
  pluginRecord(type: string, data: Json): number {
    this.time += this.rng.int(0, 3);
    const ev: GenEvent = { type, seq: this.seqCount++, time: this.time, data, ignorable: true };
    if (!this.sink) this.events.push(ev);
    this.lastEmitted = ev;
    this.record(ev);
    return ev.seq;
  }
  /** After the first turn: a translation the host asked for, and the parent's catalog of children (v0 continuable, v2 external; V4.2). */
  afterFirstTurn(): void {
    const text = this.done[0] ?? 'the first fix';
    const provider = 'google';
    const request = this.pluginRecord('plugin:translator/request', { provider, text, sourceLanguage: 'auto', targetLanguage: 'zh-CN', recipe: 'translate-v2' });
    this.pluginRecord('plugin:translator/result', { requestSeq: request, text: `已修复：${text.slice(0, 40)}` });
    this.emit('subagent/catalog', { version: 0, childId: this.rng.uuid(), childCreatedAt: this.time, mode: 'continuable', label: 'reviewer' });
    this.emit('subagent/catalog', { version: 2, childId: this.rng.uuid(), childCreatedAt: this.time, mode: 'external', label: 'ci-runner' });
  }

  // ————— 0.2.1-rc.2 background jobs (V6), only with the jobs option

  /** A job record: log-only, at the current time, drawing nothing from the generator's randomness. */
  jobRecord(type: 'job/registered' | 'job/settled', data: Json): void {
    const ev: GenEvent = { type, seq: this.seqCount++, time: this.time, data };
    if (!this.sink) this.events.push(ev);
    this.lastEmitted = ev;
    this.record(ev);
  }
  /** Before turn `turn` ends: the dev server in turn 1 (never settled) and a reviewer subagent; one test run a turn after. */
  registerJobs(turn: number): void {
    const started = (id: string, kind: string, label: string) => {
      this.jobRecord('job/registered', { id, kind, label, startedAt: this.time });
      this.runningJobs.push({ id, kind });
    };
    if (turn === 1) {
      started('job-dev-server', 'bash', 'npm run dev');
      started('job-review-1', 'subagent', 'reviewer: check the first fix');
    } else started(`job-test-${turn}`, 'bash', `npm test -- --run (turn ${turn})`);
  }
  /** Early in turn `turn`: every job but the dev server settles, its outcome by the turn it started in. */
  settleJobs(turn: number): void {
    const OUTCOMES = ['completed', 'failed', 'killed'] as const;
    const keep: { id: string; kind: string }[] = [];
    for (const job of this.runningJobs) {
      if (job.id === 'job-dev-server') { keep.push(job); continue; }
      const outcome = job.kind === 'subagent' ? 'completed' : OUTCOMES[turn % 3];
      const detail = outcome === 'failed' ? 'exit code 1: 2 tests failed' : outcome === 'killed' ? 'stopped by job_kill' : undefined;
      this.jobRecord('job/settled', { id: job.id, outcome, ...(detail ? { detail } : {}), finishedAt: this.time });
    }
    this.runningJobs = keep;
  }

  // ————— run variants (docs/compare.md), only with generateVariant

  /** The system prompt the next request is built with. */
  promptText(): string {
    const v = this.variant;
    const base = systemPrompt(this.model, this.tools);
    return v?.change === 'system' && this.callsMade + 1 >= v.atCall ? `${base}\n\nAnswer in one short paragraph unless the user asks for detail.` : base;
  }
  /** The other model from the variant's call on (its header and prompt change with it). */
  variantModel(): void {
    const v = this.variant;
    if (v?.change === 'model' && this.callsMade + 1 === v.atCall) this.model = this.model === 'deepseek-v4-flash' ? 'deepseek-v4-pro' : 'deepseek-v4-flash';
  }
  /** A tool result read by the variant's call comes back different. */
  variantOutput(out: string): string {
    const v = this.variant;
    return v?.change === 'tool-result' && this.callsMade + 1 === v.atCall ? `${out}\n(warning: 1 file changed on disk while the tool ran)` : out;
  }
  /** One failed attempt inserted before the variant's call, with randomness of its own so the rest of the log is unchanged. */
  variantAttempt(turn: number, step: number): void {
    const v = this.variant;
    if (v?.change !== 'extra-call' || this.callsMade + 1 !== v.atCall) return;
    const main = this.rng;
    this.rng = new Rng(v.atCall * 7919);
    this.failedAttempt(turn, step, { message: '503 upstream overloaded', code: 'SERVER' });
    this.rng = main;
  }

  finish(header: Json): GeneratedLog {
    if (this.sink) return { header, events: [], lines: [], text: '' };
    const lines = [JSON.stringify(header), ...this.records.map((r) => JSON.stringify(r))];
    return { header, events: this.events, lines, text: lines.join('\n') + '\n' };
  }
}

export function generateLog(opts: GenerateOptions): GeneratedLog {
  return new Generator(opts).run();
}

/**
 * The same log as generateLog, handed out line by line (header first, no
 * trailing newline) without keeping its events: for logs of any size (the
 * benchmark's 1 GB run). Returns the number of events written.
 */
export function streamLog(opts: GenerateOptions, onLine: (line: string) => void): number {
  const g = new Generator(opts);
  g.sink = onLine;
  g.run();
  return g.seqCount;
}

/**
 * A parent log and a subagent child forked from it after `afterTurn`
 * (L1.7): the child's log starts with a copy of the parent's events before the
 * cut (same seqs), then the end-seed marker, then `childTurns` turns of its own.
 */
export function generateFork(opts: GenerateOptions & { afterTurn: number; childTurns: number; childSeed?: number }): { parent: GeneratedLog; child: GeneratedLog } {
  const { afterTurn, childTurns, childSeed, ...base } = opts;
  const parent = generateLog(base);
  const child = new Generator({ ...base, openLastTurn: false });
  child.fork = { afterTurn, turns: childTurns, seed: childSeed ?? (base.seed ?? 1) + 1000 };
  return { parent, child: child.run() };
}

/**
 * The log generateLog(opts) writes, with one change from model call
 * `variant.atCall` on (docs/compare.md): the same seed, so the two logs agree
 * before that call and a comparison must find the change there.
 */
export function generateVariant(opts: GenerateOptions, variant: RunVariant): GeneratedLog {
  const g = new Generator(opts);
  g.variant = variant;
  return g.run();
}
