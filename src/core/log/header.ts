import { z } from 'zod';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';
import type { SessionHeader } from './types.ts';
import { KNOWN_DSH_TEXT } from './versions.ts';

/** Highest session format version this viewer knows (dsh-log-rules L0). */
export const LATEST_FORMAT_VERSION = 4;

const seq = z.number().int().nonnegative();
/** The header keys DSH defines in any version (L1.5). */
const HEADER_KEYS = new Set([
  'type', 'version', 'id', 'createdAt', 'delegationDepth', 'cwd', 'parentSession',
  'seedLength', 'isSeeded', 'origin', 'agentPreset',
]);

const headerSchema = z.object({
  type: z.literal('session'),
  version: seq.optional(),
  id: z.string().min(1),
  createdAt: seq,
  delegationDepth: seq.optional(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
  seedLength: seq.optional(),
  isSeeded: z.boolean().optional(),
  origin: z.literal('subagent').optional(),
  agentPreset: z.string().optional(),
}).loose();

const PLACEHOLDER = /\{\{[^}]+\}\}/;

export interface HeaderCheck {
  header: SessionHeader | null;
  version: number;
  diagnostics: Diagnostic[];
}

/**
 * Validates the header line (L1.5, E1). A header DSH would refuse is still
 * returned when its shape is usable, so the rest of the log can be shown.
 */
export function checkHeader(value: unknown, line = 1): HeaderCheck {
  const diagnostics: Diagnostic[] = [];
  const at = { line };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { type?: unknown }).type !== 'session') {
    diagnostics.push(diagnostic('header.missing', 'corrupt session log: first line is not a session header', at));
    return { header: null, version: 0, diagnostics };
  }
  const raw = value as Record<string, unknown>;
  const parsed = headerSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      diagnostics.push(diagnostic('header.invalid', `corrupt session log: first line is not a session header (${path || 'header'}: ${issue.message})`, { ...at, path: `header.${path}` }));
    }
  }
  const version = typeof raw.version === 'number' && Number.isSafeInteger(raw.version) ? raw.version : 0;
  if (raw.version === undefined) {
    diagnostics.push(diagnostic('header.no-version', 'header has no version; read as format 0 (DSH refuses it as stored)', at));
  } else if (version > LATEST_FORMAT_VERSION) {
    // Newer than this app, not corrupt (L1.5: read `version` first); a fork may also number its own format (dsh-log-rules V5).
    diagnostics.push(diagnostic('header.unsupported-version',
      `Format version ${version} is newer than this app knows (${KNOWN_DSH_TEXT}); read with format ${LATEST_FORMAT_VERSION} rules. It may come from a newer DSH, or from a fork with its own format`,
      { ...at, path: 'header.version', subject: `format ${version}` }));
  }
  // V0/V1 keep delegationDepth required on disk; every version needs it (L1.5).
  if (raw.delegationDepth === undefined) {
    diagnostics.push(diagnostic('header.invalid', 'corrupt session log: first line is not a session header (delegationDepth is required)', { ...at, path: 'header.delegationDepth' }));
  }
  if (version >= 2 && raw.isSeeded === undefined) {
    diagnostics.push(diagnostic('header.invalid', `format ${version} header requires isSeeded`, { ...at, path: 'header.isSeeded' }));
  }
  if (version >= 2 && raw.seedLength !== undefined) {
    diagnostics.push(diagnostic('header.invalid', `format ${version} header must not carry seedLength`, { ...at, path: 'header.seedLength' }));
  }
  for (const key of Object.keys(raw)) {
    if (!HEADER_KEYS.has(key)) diagnostics.push(diagnostic('header.unknown-key', `header key "${key}" is not defined by DSH`, { ...at, path: `header.${key}` }));
  }
  for (const [key, v] of Object.entries(raw)) {
    if (typeof v === 'string' && PLACEHOLDER.test(v)) {
      const refusal = key === 'cwd' ? ` (DSH refuses it as stored: session header cwd must be an absolute path, got "${v}")` : '';
      diagnostics.push(diagnostic('header.placeholder', `header ${key} holds a snapshot placeholder "${v}"${refusal}`, { ...at, path: `header.${key}` }));
    }
  }
  if (typeof raw.cwd === 'string' && !PLACEHOLDER.test(raw.cwd) && !isAbsolutePath(raw.cwd)) {
    diagnostics.push(diagnostic('header.invalid', `session header cwd must be an absolute path, got "${raw.cwd}"`, { ...at, path: 'header.cwd' }));
  }
  return { header: raw as SessionHeader, version, diagnostics };
}

/** POSIX or Windows absolute path, as DSH checks a header cwd (L1.5). */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
