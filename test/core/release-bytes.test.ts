import { describe, expect, it } from 'vitest';
import { releaseBytes } from '../../src/core/util/bytes.ts';

describe('giving the memory of bytes back at once', () => {
  it('detaches a buffer the view covers whole', () => {
    const bytes = new Uint8Array(4096).fill(7);
    expect(releaseBytes(bytes)).toBe(true);
    expect(bytes.byteLength).toBe(0);
    expect(bytes.buffer.byteLength).toBe(0);
  });

  it('leaves a view over part of a buffer alone, and a shared buffer', () => {
    const whole = new Uint8Array(4096).fill(7);
    const part = whole.subarray(1024, 2048);
    expect(releaseBytes(part)).toBe(false);
    expect(releaseBytes(whole.subarray(0, 1024))).toBe(false);
    expect(whole.byteLength).toBe(4096);
    expect(part[0]).toBe(7);
    const shared = new Uint8Array(new SharedArrayBuffer(64));
    expect(releaseBytes(shared)).toBe(false);
    expect(shared.byteLength).toBe(64);
    expect(releaseBytes(new Uint8Array(0))).toBe(false);
  });
});
