import type { VerdictKind } from '../../core/session/verdict.ts';

/**
 * How the UI words each verdict the core computes (docs/diagnostics.md): a short badge
 * for the header and a heading for the Diagnostics panel. The three ways a
 * log can fall short read differently on purpose — a broken log, a log newer
 * than this app, and a file that is not a DSH log ask different things of
 * the user. The reasons themselves come from the core's verdict summary.
 */
export const VERDICT_TEXT: Readonly<Record<VerdictKind, { badge: string | null; heading: string; tone: 'ok' | 'error' | 'warn' }>> = {
  ok: { badge: null, heading: 'DSH would restore this log', tone: 'ok' },
  'dsh-refuses': { badge: 'refused by DSH', heading: 'DSH would refuse this log', tone: 'error' },
  'newer-than-app': { badge: 'newer than this app', heading: 'This log is newer than this app, or a fork\'s own vocabulary', tone: 'warn' },
  'not-dsh': { badge: 'not a DSH log', heading: 'Not a DSH session log', tone: 'error' },
};
