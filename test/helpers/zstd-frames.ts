/**
 * Writes valid zstd frames made of raw (stored) blocks. Enough to test the
 * reader's frame handling (several frames, a torn last frame) without a
 * compressor dependency; real compressed data is covered by a fixture.
 * The writer lives with the fuzzer, which corrupts such frames.
 */
export { zstdFrames, zstdRawFrame } from '../../src/core/fuzz/encode.ts';
