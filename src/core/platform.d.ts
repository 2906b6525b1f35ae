// The few platform APIs the harness core uses. All exist in browsers, Web
// Workers and Node >= 18; declaring them here keeps DOM and Node types out
// of the core (tsconfig.core.json has `lib: ES2023`, `types: []`).

interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}
interface TextDecodeOptions {
  stream?: boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

interface ReadableStreamReadResult<T> {
  done: boolean;
  value?: T;
}
interface ReadableStreamDefaultReader<T> {
  read(): Promise<ReadableStreamReadResult<T>>;
  releaseLock(): void;
  cancel(reason?: unknown): Promise<void>;
}
interface ReadableStream<T> {
  getReader(): ReadableStreamDefaultReader<T>;
}
interface WritableStreamDefaultWriter<T> {
  write(chunk: T): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
  releaseLock(): void;
}
interface WritableStream<T> {
  getWriter(): WritableStreamDefaultWriter<T>;
}
declare class DecompressionStream {
  constructor(format: 'gzip' | 'deflate' | 'deflate-raw');
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

declare function queueMicrotask(callback: () => void): void;
declare const console: { log(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void };
// Sharing a log (src/core/share/): gzip it, and hash the single-file app's inline code for its CSP.
declare class CompressionStream {
  constructor(format: 'gzip' | 'deflate' | 'deflate-raw');
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}
declare const crypto: { subtle: { digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer> } };
declare class URLSearchParams {
  constructor(init?: string);
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  delete(name: string): void;
  toString(): string;
}

// Moves a buffer's memory to a clone (releaseBytes, where ArrayBuffer.prototype.transfer is missing).
declare function structuredClone<T>(value: T, options?: { transfer?: ArrayBuffer[] }): T;
