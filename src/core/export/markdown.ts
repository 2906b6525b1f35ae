import type { ContentBlock, Message } from '../messages/types.ts';

/** Messages as readable Markdown: one heading per message, blocks as text, code and quotes. */
export function messagesToMarkdown(title: string, messages: readonly { seq?: number; message: Message | null; note?: string }[]): string {
  const out: string[] = [`# ${title}`, ''];
  for (const { seq, message, note } of messages) {
    if (!message) continue;
    out.push(`## ${message.role}${seq !== undefined ? ` · seq ${seq}` : ''}${note ? ` · ${note}` : ''}`, '');
    for (const block of Array.isArray(message.content) ? message.content : []) out.push(blockToMarkdown(block), '');
  }
  return out.join('\n');
}

/** One message's blocks as Markdown, without a heading (the compare view diffs two of them). */
export function messageBodyToMarkdown(message: Message): string {
  return (Array.isArray(message.content) ? message.content : []).map(blockToMarkdown).join('\n\n');
}

function fence(text: string, lang = ''): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function blockToMarkdown(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'reasoning':
      return String(block.text ?? '').split('\n').map((l) => `> ${l}`).join('\n');
    case 'tool-call':
      return `**tool call** \`${String(block.name)}\`\n\n${fence(String(block.arguments ?? ''), 'json')}`;
    case 'tool-result':
      return `**tool result**${block.isError ? ' (error)' : ''}\n\n${(Array.isArray(block.content) ? block.content : []).map((b) => blockToMarkdown(b as ContentBlock)).join('\n\n')}`;
    case 'image':
      return block.offloaded ? '*[image, offloaded]*' : '*[image]*';
    default:
      return fence(JSON.stringify(block, null, 2), 'json');
  }
}
