import type { GenerateOptions } from './generate-log.ts';

/**
 * The demo logs the app's start screen offers (public/demo/, written by
 * `npm run demo-log`), and `dsh-devtools gen-log --demo` writes the first:
 * SKILL.md's worked example runs on it. The subagent demo is forked from the
 * first after turn 3.
 */
export const DEMO_LOGS: readonly (readonly [string, GenerateOptions])[] = [
  ['demo-session.jsonl', { dialect: 'v0', seed: 2026, turns: 7, stepsPerTurn: 4, compactEvery: 3, packChunks: true }],
  ['demo-session-v4.jsonl', { dialect: 'v4', seed: 2026, turns: 8, stepsPerTurn: 5, compactEvery: 3, imageOffload: true }],
];
export const DEMO_FORK = { afterTurn: 3, childTurns: 2 } as const;
