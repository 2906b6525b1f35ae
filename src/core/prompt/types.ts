// Section ids (P…) are those of docs/dsh-log-rules.md.
/** The SystemPrompt registry's data model (P1.1, P1.4). */

/** Which DSH build's assembly rules apply (P0): rc.8/mid, or newest (0.1.7+). */
export type PromptBuild = 'rc8' | 'newest';

export type ScopeKey = string;

/** What the loop passes to assemble: `{agent, scope: agent, signal}` (P1.1). */
export interface AssembleContext {
  scope?: ScopeKey;
  agent?: unknown;
  signal?: unknown;
}

export type TextSource = string | ((context: AssembleContext) => string);

export interface PromptSectionDef {
  name: string;
  order: number;
  text: TextSource;
  complete?: boolean;
  /** Newest builds only; false sends the text without `{{…}}` processing. */
  interpolate?: boolean;
}

export interface PromptContextDef {
  name: string;
  order: number;
  text: TextSource;
}

export interface ToolSchema {
  name: string;
  description: string;
  parameters: unknown;
  deferLoading?: true;
}

export interface ToolProviderResult {
  schemas: readonly { name: string; description: string; parameters: unknown; [key: string]: unknown }[];
  knownNames?: readonly string[];
}

export type ToolProvider = (context: AssembleContext) => ToolProviderResult;
export type VariableProvider = (context: AssembleContext) => string | undefined;

export interface AssembledSection {
  name: string;
  text: string;
  interpolate?: boolean;
}

export interface AssembledContext {
  name: string;
  text: string;
}

/** assemble()'s result; texts are not yet interpolated (P1.4). */
export interface PromptAssembly {
  sections: AssembledSection[];
  contexts: AssembledContext[];
  tools: ToolSchema[];
  variables: Record<string, string | undefined>;
}

/** A `system-prompt/assemble` waterfall listener; its result is authoritative (P1.4 item 8). */
export type AssembleListener = (assembly: PromptAssembly, context: AssembleContext) => PromptAssembly;
