import { useState, type ReactNode } from 'react';
import type { ContentBlock, Message } from '../../core/messages/types.ts';
import { sourceLabel } from '../../core/messages/source-kinds.ts';
import { JsonView } from '../json/JsonView.tsx';
import { blockText, foldedHead, imageLabel, prettyArguments, type CallInfo } from './blocks.ts';
import { hasWord, Marked, useSearchWords } from '../search/Marked.tsx';
import { formatCount } from '../counts.ts';

export type MessageMode = 'text' | 'tree' | 'raw';

/**
 * One model message as a reader wants it (docs/open-and-navigate.md): role and source, then
 * each content block as text — reasoning dimmed and collapsible, tool calls
 * as name and indented arguments, tool results as text under their call,
 * images as a one-line placeholder — with the JSON tree and the raw JSON one
 * toggle away. Every string is a React text node: log text is never parsed
 * as HTML, evaluated or re-encoded.
 */
export function MessageView({ message, title, calls, onSeq, defaultMode = 'text', modes = true }: {
  message: Message;
  /** What the list says before the role (a position, a seq link). */
  title?: ReactNode;
  /** Tool calls by id, to show a tool result's call. */
  calls?: ReadonlyMap<string, CallInfo>;
  /** Moves the cursor to a seq (a call's event). */
  onSeq?: (seq: number) => void;
  defaultMode?: MessageMode;
  /** Offer the text / tree / raw toggle (off where the caller has its own, as Event detail does). */
  modes?: boolean;
}) {
  const [mode, setMode] = useState<MessageMode>(defaultMode);
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const source = sourceLabel(message.source);
  const content: unknown[] = Array.isArray(message.content) ? message.content : [];
  // A V4 tool message names its call at the message level; ≤V3 puts a tool-result block in a user message.
  const toolCallId = typeof message.toolCallId === 'string' ? message.toolCallId : null;
  return (
    <article className={`msg role-${role}`} aria-label={`${role} message`}>
      <header className="msg-head">
        {title}
        <span className="msg-role">{role}</span>
        {source && <span className="msg-source">{source}</span>}
        {message.isError === true && <span className="badge error">error</span>}
        {typeof message.id === 'string' && <span className="mono muted msg-id" title="message id">{message.id}</span>}
        {modes && <span className="segmented msg-mode" role="radiogroup" aria-label="Message view">
          {(['text', 'tree', 'raw'] as const).map((m) => (
            <button key={m} role="radio" aria-checked={mode === m} className={mode === m ? 'active' : ''} onClick={() => setMode(m)}>{m}</button>
          ))}
        </span>}
      </header>
      {mode === 'text' && (
        <div className="msg-body">
          {toolCallId && <CallHeader callId={toolCallId} call={calls?.get(toolCallId)} isError={message.isError === true} onSeq={onSeq} />}
          {content.length === 0 && <span className="muted">(no content)</span>}
          {content.map((b, i) => <Block key={i} block={b} calls={calls} onSeq={onSeq} />)}
        </div>
      )}
      {mode === 'tree' && <div className="json"><JsonView value={message} open={3} /></div>}
      {mode === 'raw' && <pre className="msg-raw">{JSON.stringify(message, null, 2)}</pre>}
    </article>
  );
}

function Block({ block, calls, onSeq }: { block: unknown; calls?: ReadonlyMap<string, CallInfo>; onSeq?: (seq: number) => void }) {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    return <div className="msg-block"><Folded text={blockText(block)} /></div>;
  }
  const b = block as ContentBlock;
  switch (b.type) {
    case 'text':
      return <div className="msg-block msg-text-block"><Folded text={blockText(b.text)} /></div>;
    case 'reasoning': {
      const text = blockText(b.text);
      return (
        <details className="msg-block msg-reasoning" open={text.length <= 600}>
          <summary>reasoning · {formatCount(text.length)} chars</summary>
          <Folded text={text} />
        </details>
      );
    }
    case 'tool-call':
      return (
        <div className="msg-block msg-call">
          <div className="msg-call-head">→ call <strong className="mono">{String(b.name ?? '?')}</strong> <span className="mono muted">{typeof b.id === 'string' ? b.id : ''}</span></div>
          <Folded text={prettyArguments(b.arguments)} />
        </div>
      );
    case 'tool-result': {
      const callId = typeof b.toolCallId === 'string' ? b.toolCallId : null;
      const inner: unknown[] = Array.isArray(b.content) ? b.content : [];
      return (
        <div className="msg-block msg-result">
          <CallHeader callId={callId} call={callId ? calls?.get(callId) : undefined} isError={b.isError === true} onSeq={onSeq} />
          {inner.length === 0 && typeof b.content === 'string' && <Folded text={b.content} />}
          {inner.map((x, i) => <Block key={i} block={x} calls={calls} onSeq={onSeq} />)}
        </div>
      );
    }
    case 'image':
      return <div className="msg-block msg-image" role="img" aria-label={imageLabel(b)}>[{imageLabel(b)}]</div>;
    default:
      return (
        <div className="msg-block msg-other">
          <span className="muted mono">{String(b.type ?? 'block')}</span>
          <div className="json"><JsonView value={b} open={1} /></div>
        </div>
      );
  }
}

/** "result of <call>": the call's name and its arguments one click away, when the call is known. */
function CallHeader({ callId, call, isError, onSeq }: { callId: string | null; call?: CallInfo; isError: boolean; onSeq?: (seq: number) => void }) {
  return (
    <div className="msg-result-head">
      ← result of {call ? <strong className="mono">{call.name}</strong> : <span className="muted">a call</span>}{' '}
      {callId && <span className="mono muted">{callId}</span>}
      {call?.seq !== undefined && onSeq && <> <button className="link mono" onClick={() => onSeq(call.seq!)}>seq {call.seq}</button></>}
      {isError && <> <span className="badge error">error</span></>}
      {call && call.arguments !== undefined && (
        <details className="msg-call-args">
          <summary>arguments</summary>
          <Folded text={prettyArguments(call.arguments)} />
        </details>
      )}
    </div>
  );
}

/** Text that folds when long: the head, then "show all" for the rest. */
export function Folded({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const words = useSearchWords();
  const head = foldedHead(text);
  // A search hit past the folded head opens the text, so the match is in view.
  const hitBeyondHead = head !== null && !all && hasWord(text, words) && !hasWord(head, words);
  if (head === null || all || hitBeyondHead) {
    return (
      <>
        <pre className="msg-text"><Marked text={text} words={words} /></pre>
        {head !== null && <button className="link" onClick={() => setAll(false)}>show less</button>}
      </>
    );
  }
  return (
    <>
      <pre className="msg-text folded"><Marked text={head} words={words} /></pre>
      <button className="link" onClick={() => setAll(true)}>show all ({formatCount(text.length)} chars)</button>
    </>
  );
}
