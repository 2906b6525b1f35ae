/** How much a finding matters (codes.ts's severity policy below). */
export type Severity = 'error' | 'warning' | 'info';

interface CodeDef {
  severity: Severity;
  /** DSH refuses to restore a log with this finding (dsh-log-rules L9, the "E" rules). */
  refuses?: boolean;
  /**
   * The log holds something newer than this app knows (a type, a format or a
   * payload version): a newer DSH may restore it, so the finding never says
   * DSH refuses; the verdict says "newer than this app" (docs/diagnostics.md).
   */
  newer?: boolean;
  /** The input is not a DSH session log at all (no header, not JSONL). */
  notDsh?: boolean;
  /** What the rule is, for the docs table and the diagnostics panel. */
  rule: string;
}

/**
 * Severity policy: `error` only for what makes DSH refuse the log (every
 * error code has `refuses`; a test holds them to it), so a log DSH restores
 * never shows an error. A gap in this app's own analysis is a `warning` that
 * says what cannot be shown.
 *
 * Every diagnostic code the core emits, in one place. Codes are stable:
 * tests, filters and saved links refer to them. Rule strings cite the
 * section ids (L…, P…, V…) of docs/dsh-log-rules.md, so the Diagnostics
 * panel shows ids a user can look up there.
 */
export const DIAGNOSTIC_DEFS = {
  // Bytes and encodings (L1.4, L1.8)
  'bytes.empty': { severity: 'error', refuses: true, notDsh: true, rule: 'The file is empty: no session header.' },
  'bytes.not-text': { severity: 'error', refuses: true, notDsh: true, rule: 'The bytes are not a UTF-8 JSONL log (binary or another format).' },
  'bytes.zstd-corrupt': { severity: 'error', refuses: true, rule: 'A complete zstd frame failed to decode (L1.4).' },
  'bytes.zstd-limit': { severity: 'error', refuses: true, rule: 'A zstd frame asks for more than decoders allow by default (a window over 128 MiB, or a block over 128 KiB): decoding stops before it, what came before is kept (L1.4).' },
  'bytes.gzip-corrupt': { severity: 'error', refuses: true, rule: 'The gzip stream failed to decode.' },
  'bytes.torn-frame': { severity: 'warning', rule: 'The last zstd frame is incomplete: a torn tail (L1.8).' },
  'bytes.bom': { severity: 'info', rule: 'A UTF-8 byte-order mark was skipped.' },
  'bytes.crlf': { severity: 'info', rule: 'Lines end in CRLF; the CR was stripped.' },
  'bytes.blank-lines': { severity: 'info', rule: 'Blank lines were skipped.' },
  // Header (L1.5, E1)
  'header.missing': { severity: 'error', refuses: true, notDsh: true, rule: 'The first line is not a session header (E1): not a DSH session log.' },
  'header.invalid': { severity: 'error', refuses: true, rule: 'The header is missing a required field or has a wrong value (E1).' },
  'header.unknown-key': { severity: 'warning', rule: 'The header has a key DSH does not define (later readers reject it).' },
  'header.no-version': { severity: 'warning', rule: 'The header has no version; read as format 0.' },
  'header.unsupported-version': { severity: 'warning', newer: true, rule: 'The format version is above 4, newer than this app knows: read with format-4 rules. It may come from a newer DSH, or be a fork\'s own format (E1; dsh-log-rules V5).' },
  'header.placeholder': { severity: 'warning', rule: 'A header field holds a snapshot placeholder such as {{cwd}}; DSH refuses it as stored.' },
  'header.seed': { severity: 'error', refuses: true, rule: 'The fork cut (seedLength / isSeeded + end-seed marker) is inconsistent (E16).' },
  // Rows (L1.6, L1.8, L2)
  'row.unparsable': { severity: 'error', refuses: true, rule: 'A complete line is not valid JSON (L1.8).' },
  'row.not-object': { severity: 'error', refuses: true, rule: 'A line is JSON but not an object (L1.3).' },
  'row.envelope': { severity: 'error', refuses: true, rule: 'The event envelope has a wrong or extra key (E3).' },
  'row.seq-gap': { severity: 'error', refuses: true, rule: 'seq does not continue the count: events[i].seq must equal i (E2).' },
  'row.seq-duplicate': { severity: 'error', refuses: true, rule: 'seq repeats or goes back; the row cannot be placed and is kept aside (E2).' },
  'row.packed': { severity: 'error', refuses: true, rule: 'A packed chunk row is malformed (L1.6c).' },
  'row.source-seqs': { severity: 'error', refuses: true, rule: 'sourceEventSeqs is not a valid (range-encoded) seq list (L1.6b).' },
  'row.too-long': { severity: 'error', refuses: true, rule: 'A complete line is longer than the reader\'s line limit (just under the JavaScript string limit, where DSH cannot read it either): skipped unread, with its line, byte offset and size. Corruption when a later turn/end commits it; otherwise part of the torn tail (L1.8).' },
  'row.too-deep': { severity: 'warning', rule: 'A row nests arrays/objects deeper than the viewer reads (MAX_ROW_DEPTH); it is kept aside as a rejected row.' },
  'row.numbered': { severity: 'info', rule: 'Rows carry no seq/time (a normalized snapshot); they were numbered by position.' },
  'row.negative-zero': { severity: 'warning', rule: 'A number is -0, which is not lossless JSON (L2.1).' },
  'row.stream': { severity: 'warning', rule: 'An embedded assistant stream record is malformed (L1.6d).' },
  'tail.torn': { severity: 'warning', rule: 'A torn tail (partial last line, or bad rows with no later turn/end) was dropped as DSH does (L1.8, I3).' },
  // Vocabulary and payloads (L2.3, L3)
  'type.unknown-required': { severity: 'warning', newer: true, rule: 'An event type this app does not know, not marked ignorable (E4): the DSH releases this app knows refuse it, a newer DSH (or a fork) may not. Analyses after it may miss what it does.' },
  'type.unknown-ignorable': { severity: 'info', rule: 'An unknown event type marked ignorable; shown as opaque.' },
  'type.retired': { severity: 'error', refuses: true, rule: 'A legacy event shape DSH refuses: request/header-delta, mode/set, reason "fallback", or a malformed pre-react-loop turn/start, turn/end or steering/message (L2.3).' },
  'legacy.upgraded': { severity: 'info', rule: 'A legacy event shape was upgraded on load as DSH does; the original is kept.' },
  // Generations of one session directory (L1.2, I4): about the folder's files, not one log's rows.
  'generation.older': { severity: 'info', rule: 'An older generation of the session sits beside the live one: immutable history, frozen when DSH migrated the session to a newer format; DSH reads only the highest generation (L1.2, I4).' },
  'generation.mixed-compression': { severity: 'error', refuses: true, rule: 'A session directory holds both .jsonl and .jsonl.zstd generations: DSH refuses a root that mixes them (L1.2).' },
  'generation.version-mismatch': { severity: 'warning', rule: 'The header version is not the generation the file name says (session.jsonl* is 0, session.v<N>.jsonl* is N): DSH writes them equal (L1.2).' },
  // Background jobs (V6): pairing job/registered with job/settled by id; DSH's restore does not pair them.
  'job.unregistered': { severity: 'warning', rule: 'A job/settled names a job id no earlier job/registered registers: the job is listed from its settlement only (V6).' },
  'job.repeated': { severity: 'warning', rule: 'A job id is registered, or settled, a second time: the first record is kept, the repeat shown as logged (V6).' },
  // A load this app could not finish: about the app and the tab, not the log (warnings: DSH refuses nothing here).
  'load.too-big': { severity: 'warning', rule: 'The log would need more memory than this tab can give (estimated from its size, compression ratio and events so far): the load stopped and the open log stayed. The CLI reads it without a tab\'s limits.' },
  'load.failed': { severity: 'warning', rule: 'The load stopped on an unexpected error at this line/seq; the open log stayed. A bug in this app, not in the log: please report it.' },
  'analysis.failed': { severity: 'warning', rule: 'A view the app derives (projections, prompt, requests) failed on this log and cannot be shown; the rest of the log is. A bug in this app, not in the log: please report it.' },
  'payload.schema': { severity: 'error', refuses: true, rule: 'An event payload does not match its schema (E12/E14).' },
  'payload.unknown-version': { severity: 'warning', newer: true, rule: 'A payload carries a data.version this app does not know (subagent/catalog knows 0–2, goal/change 1): written by a newer DSH; the analyses that read it are partial (V4.1–V4.2).' },
  'payload.shape': { severity: 'warning', rule: 'A payload does not match the 0.2.1-alpha.2 catalog shape of its type; DSH does not check it when restoring, so it is shown as logged (dsh-log-rules V2, V4.2).' },
  // Surface fold (L4, L6.4): DSH refuses the log; the viewer skips the event and keeps folding.
  'surface.marker': { severity: 'error', refuses: true, rule: 'A surface event lacks surfaceOp, or a log-only event carries surface metadata (E5).' },
  'surface.op': { severity: 'error', refuses: true, rule: 'The surfaceOp is not "append" or a replace op of the exact shape for this format (E6).' },
  'surface.sources': { severity: 'error', refuses: true, rule: 'sourceEventSeqs is empty, has duplicates or non-seqs, or cites the event itself or later (E8, L4.3).' },
  'surface.endpoint': { severity: 'error', refuses: true, rule: 'A replace endpoint is not a current surface node, or start comes after end (E7).' },
  'surface.uncovered': { severity: 'error', refuses: true, rule: 'A replace does not cite every node it shadows in sourceEventSeqs (E8).' },
  'surface.tool-result-rewrite': { severity: 'error', refuses: true, rule: 'A tool-result replace must rewrite exactly one tool/result node and change only its content (E9, L4.4).' },
  'surface.system-head': { severity: 'error', refuses: true, rule: 'A replace would shadow the protected system-prompt head (E10, L4.5).' },
  'surface.developer': { severity: 'error', refuses: true, rule: 'developer/message role, tool-addition/removal blocks or headerSeq binding are wrong (E11, L4.6).' },
  'surface.event-local': { severity: 'error', refuses: true, rule: 'A V4 request/header is not canonical, or a tool error lacks isError (E13, E14, L4.7).' },
  'surface.projection': { severity: 'error', refuses: true, rule: 'A message-projection event has no interpreter, or its interpreter rejects it (E15, L6.4).' },
  // Prompt, runtime context and requests (P10).
  'request.no-header': { severity: 'warning', rule: 'A model call has no earlier request/header (P8.1 item 5, P10), as in scripted replay fixtures DSH still restores: its provider, model, tools and config cannot be shown.' },
  'request.step-unsettled': { severity: 'info', rule: 'A step/start that no later assistant/attempt or assistant/message of the same turn and step answers: the call was interrupted, and no request is rebuilt for it (P8.1 item 2).' },
  'request.header-system': { severity: 'warning', rule: 'A format-3+ request/header carries system; the prompt belongs in system/message (P3.3, P10).' },
  'request.header-noncanonical': { severity: 'info', rule: 'A request/header has empty tools or adapterDefaults without a true flag; canonical form drops them (P6.1, P10).' },
  'request.header-reason': { severity: 'warning', rule: 'A header reason contradicts the log: initial after earlier headers, resume with none, change equal to the previous header (P6.2, P10).' },
  'request.tool-update-missing': { severity: 'warning', rule: 'Tool names changed by a change header with a baseline but no developer/message followed (P6.4, P10).' },
  'request.tool-update-stale': { severity: 'warning', rule: 'A developer/message headerSeq is not the latest request/header (P6.4, P10).' },
  'request.tool-history-fallback': { severity: 'info', rule: 'Active tools differ from the tool history; the request carries current tools only (P6.5).' },
  'request.system-multiple': { severity: 'warning', rule: 'More than one non-empty system message at a request cut on a route that is not in-history (P5.4, P10).' },
  'request.bake-tool-update': { severity: 'info', rule: 'A Bake request/tool-update event: shown, but not folded into DSH tool history (P6.6).' },
  'prompt.system-opaque': { severity: 'warning', rule: 'A system/message has opaque content (several blocks or non-text) (P5.1, P10).' },
  'prompt.unresolved-variable': { severity: 'info', rule: 'A rendered system prompt still contains a valid {{name}} (a substituted value, interpolate:false, or a fixture scrub token) (P10).' },
  'prompt.head-shadowed': { severity: 'warning', rule: 'An empty system/message replace (tombstone) shadows non-system nodes (P5.5).' },
  'prompt.failure': { severity: 'info', rule: 'A turn ended on a prompt assembly or interpolation error; no request was sent (P1.6).' },
  'context.join-mismatch': { severity: 'warning', rule: 'A runtime-context snapshot text differs from joinContextSections(source.sections) (P2.2).' },
  'context.cleared-with-sections': { severity: 'warning', rule: 'The CLEARED runtime-context marker carries form/sections (P10).' },
  'context.duplicate-section': { severity: 'warning', rule: 'A runtime-context snapshot repeats a section name (P10).' },
  'context.not-single-text': { severity: 'warning', rule: 'An owned runtime-context snapshot is not a single text block (P10).' },
  'context.empty-sections': { severity: 'warning', rule: 'A snapshot has empty sections but is not the CLEARED marker (P4.4).' },
  'context.multiple-in-step': { severity: 'warning', rule: 'Several owned runtime-context snapshots in one step (P10).' },
  'context.unexplained-reemission': { severity: 'warning', rule: 'A snapshot repeats the retained text although nothing shadowed it (P4.2, P10).' },
  'context.legacy': { severity: 'info', rule: 'A sectionless runtime-context snapshot, or one logged before step/start (older fixtures, P3.2, P10).' },
  'context.plugin-source-v4': { severity: 'warning', rule: 'A {kind:"plugin"} runtime-context source in a format-4 log (P3.4, P10).' },
} as const satisfies Record<string, CodeDef>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_DEFS;
