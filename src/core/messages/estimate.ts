import { jsonText } from '../util/json-text.ts';

/**
 * The token meter's fixed-density heuristic (dsh-log-rules J4.9; DSH
 * packages/llm/token-meter/src/estimate.ts): 4 characters per token, 4
 * tokens of framing per block and per message role. Lengths are UTF-16
 * code units, as in DSH. Inputs are log JSON, so fields are read loosely
 * and a malformed block throws exactly where DSH's would.
 */
const CHARS_PER_TOKEN = 4;
const BLOCK_OVERHEAD = 4;
const ROLE_OVERHEAD = 4;

const tokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

export function estimateContent(blocks: readonly any[]): number {
  let total = 0;
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
      case 'reasoning':
        total += tokens(block.text.length) + BLOCK_OVERHEAD;
        break;
      case 'tool-call':
        total += tokens(block.name.length) + tokens(block.arguments.length) + BLOCK_OVERHEAD;
        break;
      case 'tool-result':
        total += estimateContent(block.content) + BLOCK_OVERHEAD;
        break;
      default:
        // Unknown (merge-extensible) blocks are priced by their JSON text.
        total += BLOCK_OVERHEAD + tokens(JSON.stringify(block).length);
    }
  }
  return total;
}

export function estimateMessage(message: { content: readonly any[] }): number {
  return estimateContent(message.content) + ROLE_OVERHEAD;
}

/** The canonical request header (DSH `canonicalHeader`): empty system/tools become absent. */
export function canonicalHeader(header: any): { system?: any; tools?: any } {
  return {
    ...(header.system !== undefined && header.system.length > 0 ? { system: header.system } : {}),
    ...(header.tools !== undefined && header.tools.length > 0 ? { tools: header.tools } : {}),
  };
}

export function estimateSystemTokens(header: { system?: any } | undefined): number {
  if (header?.system === undefined) return 0;
  return tokens(header.system.length) + ROLE_OVERHEAD;
}

export function estimateToolsTokens(header: { tools?: any } | undefined): number {
  if (header?.tools === undefined || header.tools.length === 0) return 0;
  return tokens(jsonText(header.tools).length) + BLOCK_OVERHEAD;
}
