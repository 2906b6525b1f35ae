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
}
