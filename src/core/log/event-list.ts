import type { LogEvent } from './types.ts';

/**
 * The events of a log as consumers read them: by position or in order. A
 * plain array is one (small logs, tests); so is the EventStore, which keeps
 * bytes and offsets and re-parses on demand (huge logs).
 */
export interface EventList extends Iterable<LogEvent> {
  readonly length: number;
  at(index: number): LogEvent | undefined;
  /** The same as `at`, for a scan over many events: a lazy list does not fill its cache with them. */
  peek?(index: number): LogEvent | undefined;
  /** The raw text of the line event `index` was read from (and of the lines after it, up to `maxBytes`), and the events [from, to) they hold; null when an event of the line is not what it says. */
  rawLines?(index: number, maxBytes?: number): RawLines | null;
}

export interface RawLines {
  /** The lines as written, joined by their line breaks. */
  text: string;
  /** The index after their last event. */
  to: number;
  /** A packed row among them (its members' chunk types are not in its text). */
  packed: boolean;
}
