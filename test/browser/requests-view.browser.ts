// Issue #19: the Requests view full-window (cases filled in with the view).
import type { Page } from 'playwright-core';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

export function requestsViewTests(_dir: string | null): Record<string, Case> {
  return {};
}
