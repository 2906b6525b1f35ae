/** A model message as DSH stores it (dsh-log-rules L3.4); content blocks stay opaque JSON. */
export interface Message {
  id: string;
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: ContentBlock[];
  source: { kind: string; [key: string]: unknown };
  toolCallId?: string;
  isError?: boolean;
  [key: string]: unknown;
}

export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}
