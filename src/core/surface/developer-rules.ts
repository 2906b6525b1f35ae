import type { LogEvent } from '../log/types.ts';
import { isPlainObject, isSeq } from '../util/json.ts';
import type { SurfaceContext } from './types.ts';

/**
 * V4 developer-message rules (dsh-log-rules L4.6, E11): the role matches the event
 * type both ways; tool-addition/removal blocks only in developer messages;
 * additions resolve in the request/header named by `headerSeq`.
 */
export function checkDeveloperRules(event: LogEvent, ctx: SurfaceContext): string | null {
  const message = event.type === 'user/message' ? event.data : event.data?.message;
  if (!isPlainObject(message)) return null; // shape errors are the reader's payload findings
  const isDeveloperEvent = event.type === 'developer/message';
  if (isDeveloperEvent !== (message.role === 'developer')) {
    return isDeveloperEvent
      ? `developer/message at seq ${event.seq} must carry a developer-role message`
      : `${event.type} at seq ${event.seq} carries a developer-role message`;
  }
  const blocks = Array.isArray(message.content) ? message.content : [];
  const additions: string[] = [];
  for (const block of blocks) {
    if (!isPlainObject(block) || (block.type !== 'tool-addition' && block.type !== 'tool-removal')) continue;
    if (!isDeveloperEvent) return `${block.type} blocks may appear only in developer messages (seq ${event.seq})`;
    if (typeof block.toolName !== 'string' || block.toolName === '') return `${block.type} at seq ${event.seq} needs a non-empty toolName`;
    if (block.type === 'tool-addition') {
      if (Object.hasOwn(block, 'tool')) return `tool-addition ${block.toolName} at seq ${event.seq} must not carry an inline tool definition`;
      additions.push(block.toolName);
    }
  }
  if (!isDeveloperEvent) return null;
  const headerSeq = event.data.headerSeq;
  if (additions.length === 0) {
    return headerSeq === undefined ? null : `developer/message at seq ${event.seq} has headerSeq but adds no tools`;
  }
  if (!isSeq(headerSeq) || headerSeq >= event.seq) return `developer/message at seq ${event.seq} adds tools and needs an earlier headerSeq`;
  const header = ctx.eventAt(headerSeq);
  if (header?.type !== 'request/header') return `headerSeq ${headerSeq} of developer/message at seq ${event.seq} is not a request/header`;
  const tools: unknown[] = Array.isArray(header.data?.header?.tools) ? header.data.header.tools : [];
  for (const name of additions) {
    const matches = tools.filter((t) => isPlainObject(t) && t.name === name);
    if (matches.length !== 1) return `tool-addition ${name} does not resolve in request/header ${headerSeq}`;
    const tool = matches[0] as Record<string, unknown>;
    if (typeof tool.description !== 'string' || !isPlainObject(tool.parameters)) return `tool ${name} in request/header ${headerSeq} needs a string description and object parameters`;
    if (Object.hasOwn(tool, 'deferLoading') && tool.deferLoading !== true) return `tool ${name} in request/header ${headerSeq} has deferLoading other than true`;
  }
  return null;
}

/** V4 event-local checks (L4.7, E13/E14). */
export function checkEventLocalV4(event: LogEvent): string | null {
  if (event.type === 'request/header') {
    const header = event.data?.header;
    if (!isPlainObject(header)) return `request/header at seq ${event.seq}: header must be an object`;
    if (Object.hasOwn(header, 'system')) return `Non-canonical request header at seq ${event.seq}: system belongs in system/message from format 3`;
    if (Array.isArray(header.tools) && header.tools.length === 0) return `Non-canonical request header at seq ${event.seq}: empty tools must be omitted`;
    if (isPlainObject(header.adapterDefaults) && Object.keys(header.adapterDefaults).length === 0) return `Non-canonical request header at seq ${event.seq}: empty adapterDefaults must be omitted`;
  }
  if (event.type === 'tool/result' && event.data?.error !== undefined && event.data?.message?.isError !== true) {
    return `tool/result at seq ${event.seq} has an error but its message is not isError: true`;
  }
  return null;
}
