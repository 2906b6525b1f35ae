import type { Diagnostic } from '../../core/diagnostics/diagnostic.ts';
import type { JobTally } from '../../core/jobs/job-tally.ts';
import type { JobRow } from '../protocol.ts';

/**
 * The open log's background jobs (dsh-log-rules V6), paired by the load's
 * walk: few per session, so the page is sent them all with the summary
 * (the Jobs lane, Event detail) and the pairing's findings join the rest.
 */
export class JobsService {
  readonly rows: readonly JobRow[];
  readonly findings: readonly Diagnostic[];

  constructor(tally: JobTally, indexOfSeq: (seq: number) => number, lastLoggedSeq: number) {
    const { jobs, findings } = tally.report(lastLoggedSeq);
    const at = (seq: number | null) => (seq === null ? -1 : indexOfSeq(seq));
    this.rows = jobs.map((j) => ({ ...j, registeredIndex: at(j.registeredSeq), settledIndex: at(j.settledSeq) }));
    this.findings = findings;
  }
}
