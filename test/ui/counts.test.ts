import { describe, expect, it } from 'vitest';
import { eventCountText, formatMs } from '../../src/ui/counts.ts';

describe('counts and durations as rows write them', () => {
  it('a duration: ms under a second, tenths of a second under a minute, then its two largest units', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(14.4)).toBe('14 ms');
    expect(formatMs(999.4)).toBe('999 ms');
    expect(formatMs(1000)).toBe('1.0 s');
    expect(formatMs(59_940)).toBe('59.9 s');
    expect(formatMs(60_000)).toBe('1 min 0 s');
    expect(formatMs(200_500)).toBe('3 min 20 s');
    expect(formatMs(7_502_000)).toBe('2 h 5 min');
    // A stream whose chunks a restarted session's clock put weeks apart (the real-shaped long log has some).
    expect(formatMs(2_118_731_600)).toBe('24 d 12 h');
  });

  it('an event count says the synthetic events apart', () => {
    expect(eventCountText(1_000_167, 1)).toBe('1,000,166 events + 1 synthetic');
    expect(eventCountText(2, 1)).toBe('1 event + 1 synthetic');
    expect(eventCountText(45, 0)).toBe('45 events');
  });
});
