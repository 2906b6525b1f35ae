import { jsonText } from './json-text.ts';

/**
 * One copy of each distinct text (and of each distinct JSON value, by its
 * text) an analysis keeps: a long session logs the same system prompt and
 * tool list in every request header, and each parse makes a new copy.
 */
export class TextPool {
  private readonly texts = new Map<string, string>();
  private readonly values = new Map<string, unknown>();

  text<T>(value: T): T {
    if (typeof value !== 'string') return value;
    const kept = this.texts.get(value);
    if (kept !== undefined) return kept as T;
    this.texts.set(value, value);
    return value;
  }

  /** A JSON value equal (as text) to one seen before is replaced by that one. */
  value<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const key = jsonText(value);
    const kept = this.values.get(key);
    if (kept !== undefined) return kept as T;
    this.values.set(key, value);
    return value;
  }
}
