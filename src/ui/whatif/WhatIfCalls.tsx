import type { WhatIfCall } from '../../core/whatif/whatif.ts';
import { useCompare } from '../../store/compare.ts';
import { useWhatIf } from '../../store/whatif.ts';
import { formatCount } from '../counts.ts';

const num = (n: number | null) => (n === null ? '–' : formatCount(n));

/** One changed call in words: "call 14: 41,200 → 28,900 input tokens; the cached prefix now ends at message 3". */
export function callChangeText(c: WhatIfCall): string {
  const name = c.before === null ? `call ${c.after} (only after the edits)` : c.after === null ? `call ${c.before} (only before the edits)` : c.before === c.after ? `call ${c.before}` : `call ${c.before} → ${c.after}`;
  const tokens = `${num(c.tokensBefore)} → ${num(c.tokensAfter)} input tokens`;
  const prefix = c.prefixAfter === null || c.prefixAfter === c.prefixBefore ? '' : `; the cached prefix now ends at message ${c.prefixAfter}`;
  return `${name}: ${tokens}${prefix}`;
}

/**
 * What the edits did to each model call (docs/whatif.md): estimated input
 * tokens and the kept (cacheable) prefix before and after, for the calls
 * whose request changed. A row moves the shared cursor to that call.
 */
export function WhatIfCalls() {
  const calls = useWhatIf((s) => s.calls);
  const seekRow = useCompare((s) => s.seekRow);
  const row = useCompare((s) => s.row);
  if (!calls) return null;
  const changed = calls.map((c, i) => ({ c, i })).filter(({ c }) => c.status !== 'same');
  return (
    <section className="whatif-calls" aria-label="What the edits change">
      <p className="pad">{changed.length ? `${changed.length} of ${calls.length} model calls change with the edits (input tokens are estimates: the edited run was never sent).` : 'No model call changes with these edits.'}</p>
      {changed.length > 0 && (
        <table>
          <thead><tr><th>call</th><th>change</th><th>input tokens</th><th>Δ</th><th>cached prefix (messages)</th></tr></thead>
          <tbody>
            {changed.map(({ c, i }) => (
              <tr key={i} className={`${c.status}${i === row ? ' at-cursor' : ''}`} onClick={() => seekRow(i)} title={callChangeText(c)} aria-label={callChangeText(c)}>
                <td className="mono">{c.before ?? '–'} → {c.after ?? '–'}</td>
                <td>{c.status}</td>
                <td className="num">{num(c.tokensBefore)} → {num(c.tokensAfter)}</td>
                <td className="num">{c.tokensBefore !== null && c.tokensAfter !== null ? `${c.tokensAfter >= c.tokensBefore ? '+' : ''}${formatCount(c.tokensAfter - c.tokensBefore)}` : ''}</td>
                <td className="num">{num(c.prefixBefore)} → {num(c.prefixAfter)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
