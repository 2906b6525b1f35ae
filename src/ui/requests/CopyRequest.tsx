import { useState } from 'react';
import { useSession } from '../../store/session.ts';
import type { RequestCopy } from '../../worker/protocol.ts';

/**
 * Copy a model call's request as the provider got it: the body as JSON, or a
 * cURL command (the key is `$DEEPSEEK_API_KEY`, never one from the log). What
 * the copy cannot hold is said beside the buttons.
 */
export function CopyRequest({ call }: { call: number }) {
  const client = useSession((s) => s.client);
  const [said, setSaid] = useState<{ text: string; notes: string[] } | null>(null);
  const copy = async (as: 'json' | 'curl') => {
    if (!client) return;
    try {
      const got: RequestCopy = await client.requestCopy(call);
      const text = as === 'json' ? got.json : got.curl;
      if (text === null) { setSaid({ text: 'no cURL: not sent by DSH’s DeepSeek adapter', notes: got.notes }); return; }
      await navigator.clipboard?.writeText(text);
      setSaid({ text: `copied ${as === 'json' ? (got.kind === 'deepseek' ? 'the request body' : 'the loop request') : 'a cURL command'} of call ${call + 1}`, notes: got.notes });
    } catch (err) {
      setSaid({ text: err instanceof Error ? err.message : String(err), notes: [] });
    }
  };
  return (
    <span className="copy-request">
      <button onClick={() => void copy('json')} title="The body DSH sent the provider: messages, tools, config">Copy request as JSON</button>
      <button onClick={() => void copy('curl')} title="The request as a cURL command; the key is read from $DEEPSEEK_API_KEY when it runs">Copy as cURL</button>
      {said && <span className="muted" role="status">{said.text}{said.notes.length ? ` (${said.notes.join('; ')})` : ''}</span>}
    </span>
  );
}
