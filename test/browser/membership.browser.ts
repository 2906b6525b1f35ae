// Issue #19: the context-membership lane on the timeline (cases filled in with the lane).
import type { Page } from 'playwright-core';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

export function membershipTests(_dir: string | null): Record<string, Case> {
  return {};
}
