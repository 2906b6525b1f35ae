import { memo } from 'react';
import { useView } from '../../store/view.ts';

export type EventSort = 'seq' | 'time' | 'type';

/** The sort and the family filters: memoized, so a cursor step does not touch their inputs (React rewrites an input's attributes on every update). */
export const FamilyFilters = memo(function FamilyFilters({ sort, setSort, rawStreams, streams, families, hidden }: {
  sort: EventSort; setSort: (sort: EventSort) => void; rawStreams: boolean; streams: boolean; families: readonly string[]; hidden: readonly string[];
}) {
  const setRawStreams = useView((s) => s.setRawStreams);
  const toggleFamily = useView((s) => s.toggleFamily);
  return (
    <div className="family-filters">
      <select aria-label="Sort events" value={sort} onChange={(e) => setSort(e.target.value as EventSort)}>
        <option value="seq">by seq</option><option value="time">by time</option><option value="type">by type</option>
      </select>
      <label className="chip" title="Show every streamed delta as its own row, as logged (else one row per streamed output)">
        <input type="checkbox" checked={rawStreams} onChange={(e) => setRawStreams(e.target.checked)} disabled={!streams} /> raw chunks
      </label>
      {families.map((f) => (
        <label key={f} className={`chip fam-${f}`}>
          <input type="checkbox" checked={!hidden.includes(f)} onChange={() => toggleFamily(f)} /> {f}
        </label>
      ))}
    </div>
  );
});
