import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';

/**
 * A load that stopped, with the finding that says why and where: a log too
 * big for the memory at hand, or an unexpected error at a known line/seq.
 * The caller keeps what it had (the app: the open log).
 */
export class LoadStopped extends Error {
  constructor(readonly finding: Diagnostic, options?: { cause?: unknown }) {
    super(finding.message, options);
    this.name = 'LoadStopped';
  }
}

/** Any error out of a load, as a LoadStopped naming the line (and seq) the reader was at. */
export function stoppedAt(err: unknown, where: { line?: number; seq?: number }): LoadStopped {
  if (err instanceof LoadStopped) return err;
  const message = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  const at = [where.line !== undefined ? `line ${where.line}` : '', where.seq !== undefined ? `seq ${where.seq}` : ''].filter(Boolean).join(', ');
  return new LoadStopped(diagnostic('load.failed', `The load stopped${at ? ` at ${at}` : ''} on an unexpected error: ${message}`, where), { cause: err });
}
