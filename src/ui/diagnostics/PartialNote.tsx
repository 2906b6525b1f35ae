import { isPartialAt, partialFrom } from '../../core/session/verdict.ts';
import { useSession } from '../../store/session.ts';

/**
 * Marks a view partial at the cursor when the log holds something newer than
 * this app before it (the core's verdict decides; docs/diagnostics.md).
 */
export function PartialNote({ analysis, seq, unit }: { analysis: string; seq: number; unit?: string }) {
  const verdict = useSession((s) => s.summary?.verdict);
  if (!verdict || !isPartialAt(verdict, analysis, seq, unit)) return null;
  const from = partialFrom(verdict, analysis, unit);
  return (
    <span className="badge warn partial-note" title={verdict.summary}>
      partial{from === null || from === undefined ? '' : ` from seq ${from}`}: the log holds {verdict.unknown.join(', ')}, which this app does not know
    </span>
  );
}
