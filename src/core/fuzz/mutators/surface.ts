// Surface references and packed chunk rows.
import type { Mutator } from '../mutation.ts';
import { eventLines, pickEventLine, replaceLine, type Row } from '../rows.ts';

export const surfaceRefs: Mutator = (base, rng) => {
  const v0 = base.read.dialect === 'v0';
  const [startKey, endKey] = v0 ? ['start', 'end'] : ['startSeq', 'endSeq'];
  const hit = pickEventLine(base, rng, (r) => (r.surfaceOp && typeof r.surfaceOp === 'object') || (Array.isArray(r.sourceEventSeqs) && r.sourceEventSeqs.length > 0 && r.type !== 'assistant/message'));
  if (!hit) return null;
  const { line, row } = hit;
  const seq: number = eventLines(base).seqOf.get(line) ?? row.seq;
  const isReplace = row.surfaceOp && typeof row.surfaceOp === 'object';
  const out: Row = JSON.parse(JSON.stringify(row));
  const sources: unknown[] = Array.isArray(out.sourceEventSeqs) ? out.sourceEventSeqs : [];
  const variants = isReplace
    ? ['missing', 'shadowed', 'future', 'reversed', 'op-shape', 'src-future', 'src-self', 'src-dup', 'src-empty', 'src-bad', 'uncovered', 'range']
    : ['src-future', 'src-self', 'src-dup', 'src-bad', 'range'];
  const variant = rng.pick(variants);
  let reader = false; // the reader, not the fold, rejects it
  switch (variant) {
    case 'missing': {
      // An earlier log-only event: never a surface node.
      const logOnly = base.read.events.filter((e) => e.seq < seq && e.surfaceOp === undefined).map((e) => e.seq);
      if (!logOnly.length) return null;
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick(logOnly);
      break;
    }
    case 'shadowed': {
      const shadowed = base.fold.surface.replacements.filter((r) => r.seq < seq).flatMap((r) => r.shadowedSeqs);
      if (!shadowed.length) return null;
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick(shadowed);
      break;
    }
    case 'future':
      out.surfaceOp[rng.chance(0.5) ? startKey : endKey] = rng.pick([seq, seq + 1, seq + rng.int(2, 50), 2 ** 40]);
      break;
    case 'reversed': {
      const { [startKey]: a, [endKey]: b } = out.surfaceOp;
      if (a === b) return null;
      out.surfaceOp = { ...out.surfaceOp, [startKey]: b, [endKey]: a };
      break;
    }
    case 'op-shape':
      out.surfaceOp = rng.pick([
        { ...out.surfaceOp, op: 'Replace' },
        { ...out.surfaceOp, extra: 1 },
        { op: 'replace', [v0 ? 'startSeq' : 'start']: out.surfaceOp[startKey], [v0 ? 'endSeq' : 'end']: out.surfaceOp[endKey] },
        { ...out.surfaceOp, [startKey]: -1 },
        { ...out.surfaceOp, [endKey]: 1.5 },
        'prepend', null, {}, ['replace'],
      ]);
      break;
    case 'src-future': out.sourceEventSeqs = [...sources, seq + rng.int(1, 5)]; break;
    case 'src-self': out.sourceEventSeqs = [...sources, seq]; break;
    case 'src-dup': if (!sources.length) return null; out.sourceEventSeqs = [...sources, rng.pick(sources)]; break;
    case 'src-empty': out.sourceEventSeqs = []; break;
    case 'src-bad': out.sourceEventSeqs = [...sources, rng.pick([-1, 1.5, '3', null, 2 ** 53, true])]; break;
    case 'uncovered': {
      const replaced = base.fold.surface.replacements.find((r) => r.seq === seq);
      if (!replaced) return null;
      const drop = rng.pick(replaced.shadowedSeqs);
      out.sourceEventSeqs = sources.filter((s) => s !== drop);
      break;
    }
    case 'range':
      out.sourceEventSeqs = [...sources, rng.pick([[5, 2], [1], [1, 2, 3], [-1, 2], [0, 2 ** 40]])];
      reader = true;
      break;
  }
  void reader;
  return { mutator: 'surface-refs', detail: `line ${line} (seq ${seq}): ${variant}`, text: replaceLine(base, line, JSON.stringify(out)), encoding: 'plain', fault: { kind: 'seq', seq, line } };
};


export const packedRows: Mutator = (base, rng) => {
  const hit = pickEventLine(base, rng, (r) => typeof r.seq0 === 'number');
  if (!hit) return null;
  const { line, row } = hit;
  const out: Row = JSON.parse(JSON.stringify(row));
  const d = out.data;
  const payload = Array.isArray(d.args) ? 'args' : 'texts';
  const variant = rng.int(0, 13);
  switch (variant) {
    case 0: d.dt = d.dt.slice(1); break;
    case 1: d.dt = [...d.dt, 1]; break;
    case 2: d.dt = d.dt.map((x: number, i: number) => (i === 0 ? 0.5 : x)); if (!d.dt.length) return null; break;
    case 3: d[payload] = []; break;
    case 4: d[payload] = [...d[payload].slice(1), 7]; break;
    case 5: d.extra = true; break;
    case 6: delete d.turn; break;
    case 7: out.type = out.type === 'tool-call-chunks' ? 'text-chunks' : 'tool-call-chunks'; break;
    case 8: out.seq0 -= rng.int(1, 2); break;
    case 9: out.seq0 += rng.int(1, 3); break;
    case 10: out.time0 = 'soon'; break;
    case 11: out.time = out.time0; break;
    case 12: out.seq0 = 1.5; break;
    default: d.dt = d.dt.map(() => 2 ** 53); if (!d.dt.length) return null;
  }
  return { mutator: 'packed-rows', detail: `line ${line} variant ${variant}`, text: replaceLine(base, line, JSON.stringify(out)), encoding: 'plain', fault: { kind: 'line', line, exact: true } };
};
