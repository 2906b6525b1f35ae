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
  /** The raw text of the line event `index` was read from, and the events [from, to) it holds; null when an event of it is not what the line says. */
  rawLine?(index: number): RawLine | null;
}

export interface RawLine {
  text: string;
  /** The line's events, by index. */
  from: number;
  to: number;
  /** A packed row (its members' chunk types are not in its text). */
  packed: boolean;
}
