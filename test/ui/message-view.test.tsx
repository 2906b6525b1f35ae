// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages/types.ts';
import { FOLD_CHARS } from '../../src/ui/message/blocks.ts';
import { callsIn } from '../../src/ui/message/blocks.ts';
import { MessageView } from '../../src/ui/message/MessageView.tsx';

afterEach(cleanup);

const msg = (role: Message['role'], content: unknown[], extra: Partial<Message> = {}): Message =>
  ({ id: `${role}-1`, role, content, source: { kind: role === 'assistant' ? 'model' : 'user' }, ...extra }) as Message;

describe('MessageView (issue #17): a message read as text, no expanding', () => {
  it('shows role, source and text as it is, quotes and line breaks included (never re-encoded)', () => {
    const text = 'line one "quoted"\n\tline two \\n not a break';
    render(<MessageView message={msg('user', [{ type: 'text', text }])} />);
    const article = screen.getByRole('article', { name: 'user message' });
    expect(within(article).getByText('user', { selector: '.msg-role' })).toBeTruthy();
    expect(within(article).getByText('user', { selector: '.msg-source' })).toBeTruthy();
    expect(article.querySelector('pre.msg-text')!.textContent).toBe(text);
  });

  it('reasoning is dimmed and collapsible; a long one starts collapsed', () => {
    render(<MessageView message={msg('assistant', [{ type: 'reasoning', text: 'short thought' }, { type: 'reasoning', text: 'x'.repeat(900) }, { type: 'text', text: 'answer' }])} />);
    const [short, long] = document.querySelectorAll('details.msg-reasoning');
    expect((short as HTMLDetailsElement).open).toBe(true);
    expect((long as HTMLDetailsElement).open).toBe(false);
    expect(short.querySelector('summary')!.textContent).toBe('reasoning · 13 chars');
    expect(screen.getByText('answer')).toBeTruthy();
  });

  it('a tool call is its name and indented arguments', () => {
    render(<MessageView message={msg('assistant', [{ type: 'tool-call', id: 'call_1', name: 'bash', arguments: '{"command":"ls -la","timeout":5}' }])} />);
    const call = document.querySelector('.msg-call')!;
    expect(call.querySelector('.msg-call-head')!.textContent).toBe('→ call bash call_1');
    expect(call.querySelector('pre')!.textContent).toBe('{\n  "command": "ls -la",\n  "timeout": 5\n}');
  });

  it('arguments that are not JSON are shown as logged', () => {
    render(<MessageView message={msg('assistant', [{ type: 'tool-call', id: 'c', name: 'x', arguments: '{broken' }])} />);
    expect(document.querySelector('.msg-call pre')!.textContent).toBe('{broken');
  });

  it('a tool result (≤V3 block) is its text under its call, found on the same page', () => {
    const assistant = msg('assistant', [{ type: 'tool-call', id: 'call_7', name: 'read_file', arguments: '{"path":"a.ts"}' }]);
    const result = msg('user', [{ type: 'tool-result', toolCallId: 'call_7', content: [{ type: 'text', text: 'export const a = 1;' }], isError: false }], { source: { kind: 'tool', callId: 'call_7' } });
    render(<MessageView message={result} calls={callsIn([assistant, result])} />);
    const head = document.querySelector('.msg-result-head')!;
    expect(head.textContent).toContain('← result of read_file call_7');
    expect(screen.getByText('export const a = 1;').tagName).toBe('PRE');
    fireEvent.click(within(head as HTMLElement).getByText('arguments'));
    expect(head.querySelector('details pre')!.textContent).toBe('{\n  "path": "a.ts"\n}');
  });

  it('a V4 tool message names its call at the message level, and an error is marked', () => {
    const m = msg('tool', [{ type: 'text', text: 'Error: denied' }], { toolCallId: 'k1', isError: true, source: { kind: 'tool', callId: 'k1' } });
    render(<MessageView message={m} calls={new Map([['k1', { name: 'snapshot_double', arguments: '{"value":-1}', seq: 30 }]])} onSeq={() => {}} />);
    expect(document.querySelector('.msg-result-head')!.textContent).toMatch(/result of snapshot_double k1 seq 30/);
    expect(screen.getAllByText('error').length).toBeGreaterThan(0);
    expect(screen.getByText('Error: denied')).toBeTruthy();
  });

  it('an image is a placeholder with its type, size and bytes (no image is loaded)', () => {
    const image = { type: 'image', attachment: { attachmentId: 'sha256:b1ff9c8ea3a780bad09b346c423d2d0e', mediaType: 'image/png', width: 640, height: 480, bytes: 20480 }, offloaded: true };
    render(<MessageView message={msg('user', [image, { type: 'text', text: 'what is this?' }])} />);
    const placeholder = screen.getByRole('img');
    expect(placeholder.tagName).toBe('DIV');
    expect(placeholder.textContent).toBe('[image · image/png · 640×480 · 20.0 KiB · sha256:b1ff9c8ea3a7… · offloaded (the model is sent a placeholder)]');
    expect(document.querySelectorAll('img').length).toBe(0);
  });

  it('very long text is folded with "show all", and shows whole when asked', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join('\n');
    render(<MessageView message={msg('user', [{ type: 'text', text }])} />);
    const pre = () => document.querySelector('pre.msg-text')!;
    expect(pre().textContent!.length).toBeLessThanOrEqual(FOLD_CHARS);
    expect(text.startsWith(pre().textContent!)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: `show all (${text.length.toLocaleString()} chars)` }));
    expect(pre().textContent).toBe(text);
    fireEvent.click(screen.getByRole('button', { name: 'show less' }));
    expect(pre().textContent!.length).toBeLessThan(text.length);
  });

  it('hostile text stays text: no element, script, handler or link is made from it', () => {
    const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:alert(1)">x</a>\u202Etxt.exe';
    const m = msg('assistant', [{ type: 'text', text: evil }, { type: 'reasoning', text: evil }, { type: 'tool-call', id: evil, name: evil, arguments: evil }, { type: evil }], { id: evil, source: { kind: evil } });
    const { container } = render(<MessageView message={m} />);
    expect(container.querySelectorAll('img, script, a, iframe').length).toBe(0);
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect([...container.querySelectorAll('pre.msg-text')].map((p) => p.textContent)).toEqual([evil, evil, evil]);
    expect(container.querySelector('.msg-call-head')!.textContent).toContain(evil);
    expect(container.innerHTML).not.toContain('<img');
  });

  it('tree and raw are one toggle away', () => {
    const m = msg('user', [{ type: 'text', text: 'hello' }]);
    render(<MessageView message={m} />);
    fireEvent.click(screen.getByRole('radio', { name: 'raw' }));
    expect(document.querySelector('pre.msg-raw')!.textContent).toBe(JSON.stringify(m, null, 2));
    fireEvent.click(screen.getByRole('radio', { name: 'tree' }));
    expect(screen.getByText('"hello"')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'text' }));
    expect(document.querySelector('pre.msg-text')!.textContent).toBe('hello');
  });
});
