type Row = Record<string, any>;
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a stored row keeps its message (dsh-log-rules L3.1): a user/message is
 * one, the others carry `data.message`; a legacy row (before message identity,
 * which the reader upgrades: L2.3) keeps its `content` in `data` itself.
 */
export function messageOfRow(row: Row): Row | null {
  const d = row.data;
  if (!isObject(d)) return null;
  if (isObject(d.message)) return d.message;
  return row.type === 'user/message' || Array.isArray(d.content) ? d : null;
}

/** Content with its text blocks made one block of `text` where the first one was (first when there was none); other blocks kept. */
function withText(content: unknown[], text: string): unknown[] {
  const at = content.findIndex((b) => isObject(b) && b.type === 'text');
  const rest = content.filter((b) => !(isObject(b) && b.type === 'text'));
  const block = { type: 'text', text };
  if (at < 0) return [block, ...rest];
  const before = content.slice(0, at).filter((b) => !(isObject(b) && b.type === 'text'));
  return [...before, block, ...rest.slice(before.length)];
}

/**
 * The row with its message's text replaced, or null when it holds no message
 * content. A format-0 tool result keeps its text inside its one tool-result
 * block (L3.1), so that block's content takes it.
 */
export function withMessageText(row: Row, text: string): Row | null {
  const message = messageOfRow(row);
  if (!message || !Array.isArray(message.content)) return null;
  const inner = message.content.length === 1 && isObject(message.content[0]) && message.content[0].type === 'tool-result' && Array.isArray(message.content[0].content);
  const content = inner ? [{ ...message.content[0], content: withText(message.content[0].content, text) }] : withText(message.content, text);
  const edited = { ...message, content };
  const data = message === row.data ? edited : { ...row.data, message: edited };
  return { ...row, data };
}

/** A message's text as a "new text" edit starts from: its text blocks joined (a format-0 tool result's, inside its one block). */
export function messageText(message: { content?: unknown }): string {
  const content = Array.isArray(message.content) ? message.content : [];
  const inner = content.length === 1 && isObject(content[0]) && content[0].type === 'tool-result' && Array.isArray(content[0].content) ? content[0].content : content;
  return inner.filter((b: unknown): b is Row => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b: Row) => b.text).join('\n');
}
