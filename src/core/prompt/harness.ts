import { PromptRegistry, type PromptRegistryOptions } from './registry.ts';
import type { PromptBuild } from './types.ts';

/** The registrations DSH itself makes (dsh-log-rules P1.2). */

export const HARNESS_IDENTITY = 'You are an AI agent powered by DeepSeek Harness.';

export interface HarnessPromptConfig {
  includeHarnessIdentity?: boolean;
  includeRuntimeContext?: boolean;
  /** rc.8/mid: the order-0 `deployment:persona` section. */
  persona?: string;
  /** Newest: `deployment:persona-prefix` (0) and `deployment:persona-suffix` (10200). */
  personaPrefix?: string;
  personaSuffix?: string;
  toolOrder?: readonly string[];
}

export interface LoopVariables {
  provider?: string;
  model?: string;
  cwd?: string;
}

/**
 * A registry with DSH's built-ins for the given build, plus the loop's
 * `provider`/`model`/`cwd` variables (from AgentOptions and the session
 * header's cwd — not from the final route).
 */
export function createHarnessPrompt(build: PromptBuild, config: HarnessPromptConfig = {}, loop: LoopVariables = {}, options: Omit<PromptRegistryOptions, 'build' | 'toolOrder'> = {}): PromptRegistry {
  const registry = new PromptRegistry({ ...options, build, toolOrder: config.toolOrder });
  if (config.includeHarnessIdentity ?? true) {
    registry.section({ name: 'harness:identity', order: build === 'newest' ? -1000 : -100, text: HARNESS_IDENTITY });
  }
  if (build === 'newest') {
    registry.section({ name: 'deployment:persona-prefix', order: 0, text: config.personaPrefix ?? '' });
    registry.section({ name: 'deployment:persona-suffix', order: 10200, text: config.personaSuffix ?? '' });
  } else {
    registry.section({ name: 'deployment:persona', order: 0, text: config.persona ?? '' });
  }
  if (!(config.includeRuntimeContext ?? true)) registry.suppressRuntimeContext();
  registry.variable('provider', () => loop.provider);
  registry.variable('model', () => loop.model);
  registry.variable('cwd', () => loop.cwd);
  return registry;
}
