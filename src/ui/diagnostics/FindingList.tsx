import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { isNewerCode } from '../../core/session/verdict.ts';
import type { Severity } from '../../core/diagnostics/diagnostic.ts';
import type { LoadSummary } from '../../worker/protocol.ts';
import type { FindingRow } from './finding-rows.ts';

type Finding = LoadSummary['diagnostics'][number];

const ROW_H = 27;
const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Info' };

/**
 * The findings drawn a screen at a time: a long session can hold thousands
 * (6,538 re-emitted context warnings on a real-shaped 1M-event log), and a
 * list of all of them put 27k elements in the page, which every cursor step
 * then paid for in style and layout. Rows wrap long messages, so
 * each is measured as it is drawn.
 */
export function FindingList({ rows, onToggle, onSeek }: {
  rows: readonly FindingRow<Finding>[];
  onToggle: (severity: Severity, open: boolean) => void;
  onSeek: (index: number) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 12, initialRect: { width: 600, height: 400 }, useFlushSync: false });
  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} className="scroll">
      <div className="diag-list" role="list" aria-label="Findings" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const row = rows[v.index];
          return (
            <div key={row.kind === 'group' ? row.severity : v.index} data-index={v.index} ref={virtualizer.measureElement} role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)` }}>
              {row.kind === 'group'
                ? <GroupHeading severity={row.severity} count={row.count} open={row.open} onToggle={onToggle} />
                : <FindingLine d={row.finding} onSeek={onSeek} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

const GroupHeading = memo(function GroupHeading({ severity, count, open, onToggle }: { severity: Severity; count: number; open: boolean; onToggle: (severity: Severity, open: boolean) => void }) {
  return (
    <button className={`diag-group ${severity}`} aria-expanded={open} onClick={() => onToggle(severity, !open)}>
      <span aria-hidden="true">{open ? '▾' : '▸'} </span>{HEADINGS[severity]} ({count})
    </button>
  );
});

const FindingLine = memo(function FindingLine({ d, onSeek }: { d: Finding; onSeek: (index: number) => void }) {
  return (
    <div className={`diag ${d.severity}`}>
      <button className="link" disabled={d.index === undefined} onClick={() => d.index !== undefined && onSeek(d.index)}>
        {d.line !== undefined ? `line ${d.line}` : ''}{d.seq !== undefined ? ` seq ${d.seq}` : ''}
      </button>
      <span className="mono code">{d.code}</span>
      {d.refuses && <span className="badge error" title="DSH refuses to restore a log with this finding">refuses</span>}
      {isNewerCode(d.code) && <span className="badge warn" title="The log holds something this app does not know; a newer DSH may restore it">newer than this app</span>}
      <span>{d.message}</span>
      {d.path && <span className="mono muted"> at {d.path}</span>}
    </div>
  );
});
