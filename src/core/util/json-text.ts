/**
 * JSON text of a parsed log value, made once per value: a request header's
 * tools are serialized by the request analysis and priced by the token
 * meter from the same event object. Weak, so the text goes with the event.
 */
const texts = new WeakMap<object, string>();

export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value ?? null);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
