/**
 * The DSH releases and session formats this app follows, in one place: the
 * verdict names them when a log is newer than the app (the formats each
 * release wrote: docs/dsh-log-rules.md L0, docs/open-and-navigate.md).
 * Facts from docs/dsh-log-rules.md L0 and V1, V4.7.
 */
export const OLDEST_KNOWN_DSH = '0.1.0-rc.8';
export const NEWEST_KNOWN_DSH = '0.2.1-alpha.2';
/** The release that added the background-job records to format 4 (dsh-log-rules V6); of it, only they are known. */
export const JOBS_DSH = '0.2.1-rc.2';

/** One line for messages: which DSH this app knows. */
export const KNOWN_DSH_TEXT = `DSH ${OLDEST_KNOWN_DSH} … ${NEWEST_KNOWN_DSH} and ${JOBS_DSH}'s background jobs, session formats 0–4`;

/**
 * Vocabulary DSH added to format 4 without a format bump, with the first
 * release that writes it: older format-4 builds refuse a log holding it
 * (dsh-log-rules V2 `working-directory/change`). Plugin records (V4.3) are not
 * here: they are ignorable, which older readers skip.
 */
export const FORMAT4_ADDITIONS: Readonly<Record<string, string>> = {
  'working-directory/change': NEWEST_KNOWN_DSH,
  'job/registered': JOBS_DSH,
  'job/settled': JOBS_DSH,
};

/** The releases FORMAT4_ADDITIONS names, oldest first: a log needs the newest of those its types name. */
export const FORMAT4_RELEASE_ORDER: readonly string[] = [NEWEST_KNOWN_DSH, JOBS_DSH];

/**
 * Event types seen only in DSH forks and derivatives, never in an upstream
 * catalog this app knows, with who writes them (P6.6;
 * dsh-log-rules V5). Named in the verdict, still read as unknown.
 */
export const FORK_TYPES: Readonly<Record<string, string>> = {
  'request/tool-update': 'Bake, a DSH derivative, logs tool changes this way',
  'fork/session-source': 'a DSH fork (knyazev741/deepseek-harness) writes it',
  'session/pin': 'a DSH fork (qualified-attribution-and-pin record) writes it',
  'subagent/external-start': 'DSH fork branches after 0.2.1-alpha.2 write it; upstream alpha.2 records external children as subagent/catalog v2',
  'subagent/external-end': 'DSH fork branches after 0.2.1-alpha.2 write it; upstream alpha.2 records external children as subagent/catalog v2',
};
