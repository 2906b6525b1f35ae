import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages/types.ts';
import type { LoopRequest } from '../../src/core/requests/build.ts';
import { curlCommand, providerRequest } from '../../src/core/requests/wire.ts';

const msg = (role: Message['role'], content: Message['content'], extra: Partial<Message> = {}): Message => ({ id: `m${Math.random()}`, role, content, source: { kind: 'user' }, ...extra });

function call(loop: Partial<LoopRequest>, provider = 'deepseek-official') {
  return { config: { provider, model: 'deepseek-v4-flash' }, loopRequest: { provider, model: 'deepseek-v4-flash', messages: [], sessionId: 's-1', ...loop } as LoopRequest };
}

describe("the provider request DSH's DeepSeek adapter sends (core/requests/wire.ts)", () => {
  it('maps each message kind as the adapter does: the header prompt first, tool results as tool messages, reasoning apart, developer messages left out', () => {
    const r = providerRequest(call({
      system: 'be brief',
      reasoningEffort: 'high',
      maxTokens: 1000,
      temperature: 0.2,
      tools: [{ name: 'ls', description: 'list', parameters: { type: 'object' } }],
      messages: [
        msg('user', [{ type: 'text', text: 'list ' }, { type: 'text', text: 'files' }]),
        msg('assistant', [{ type: 'reasoning', text: 'I should call ls.' }, { type: 'tool-call', id: 'c1', name: 'ls', arguments: '{"path":"."}' }]),
        msg('user', [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'a.txt' }] }, { type: 'tool-result', toolCallId: 'c2', content: [] }]),
        msg('developer', [{ type: 'tool-addition', toolName: 'grep' }]),
        msg('tool', [{ type: 'text', text: 'v4 result' }], { toolCallId: 'c3' }),
        msg('system', [{ type: 'text', text: 'a system message in history' }]),
      ],
    }));
    expect(r.kind).toBe('deepseek');
    expect(r.url).toBe('https://api.deepseek.com/chat/completions');
    expect(r.body).toEqual({
      model: 'deepseek-v4-flash',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: '', reasoning_content: 'I should call ls.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
        { role: 'tool', tool_call_id: 'c2', content: '(no output)' },
        { role: 'tool', tool_call_id: 'c3', content: 'v4 result' },
        { role: 'system', content: 'a system message in history' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      thinking: { type: 'enabled' },
      reasoning_effort: 'high',
      tools: [{ type: 'function', function: { name: 'ls', description: 'list', parameters: { type: 'object' } } }],
      temperature: 0.2,
      max_tokens: 1000,
    });
    expect(r.headers).toContainEqual(['authorization', 'Bearer $DEEPSEEK_API_KEY']);
    expect(r.headers).toContainEqual(['x-deepseek-harness-session-id', 's-1']);
  });

  it('effort off disables thinking; an image keeps its place and says its bytes are not in the log', () => {
    const r = providerRequest(call({ reasoningEffort: 'off', messages: [msg('user', [{ type: 'text', text: 'see' }, { type: 'image', attachment: { mediaType: 'image/jpeg' } }])] }));
    expect(r.body).toMatchObject({ thinking: { type: 'disabled' }, messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,' } }] }] });
    expect((r.body as Record<string, unknown>).reasoning_effort).toBeUndefined();
    expect(r.notes.join(' ')).toMatch(/image bytes are not in a DSH log/);
  });

  it("another provider's body is not DSH's: the loop request stands in, and there is no cURL", () => {
    const r = providerRequest(call({ messages: [msg('user', [{ type: 'text', text: 'hi' }])] }, 'openai'));
    expect(r.kind).toBe('loop');
    expect((r.body as LoopRequest).messages).toHaveLength(1);
    expect(() => curlCommand(r)).toThrow(/not DSH's DeepSeek adapter/);
  });

  it('the cURL command quotes every value but the key, which the shell reads from the environment', () => {
    const c = curlCommand(providerRequest(call({ sessionId: "it's", messages: [msg('user', [{ type: 'text', text: "DSH_REQUEST_BODY $HOME `x` 'q'" }])] })));
    expect(c).toContain(`-H 'x-deepseek-harness-session-id: it'\\''s'`);
    expect(c).toContain('-H "authorization: Bearer ${DEEPSEEK_API_KEY}"');
    // The body is one JSON line inside a quoted here-document: nothing in it is expanded, and it cannot end the document early.
    const lines = c.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('DSH_REQUEST_BODY');
    expect(JSON.parse(lines.at(-2)!).messages[0].content).toBe("DSH_REQUEST_BODY $HOME `x` 'q'");
  });
});
