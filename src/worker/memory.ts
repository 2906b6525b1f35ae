import { memoryBudget, type MemoryBudget } from '../core/log/memory-budget.ts';

/**
 * The memory a load may use, from what this browser reports about itself
 * (Chromium's performance.memory, navigator.deviceMemory; others report
 * nothing and get a default), or the page's `?memoryBudget=<MB>`.
 */
export function platformMemoryBudget(overrideBytes?: number): MemoryBudget {
  const memory = (globalThis.performance as { memory?: { jsHeapSizeLimit?: number; usedJSHeapSize?: number } } | undefined)?.memory;
  const device = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory;
  return memoryBudget({ heapLimit: memory?.jsHeapSizeLimit, heapUsed: memory?.usedJSHeapSize, deviceMemoryGiB: device, override: overrideBytes });
}

/**
 * `?memoryBudget=<MB>` on the page's address: a budget for the loads it
 * starts (browser tests set a low one; a user who knows the machine can set
 * a higher one). Read on the main thread, sent with each load.
 */
export function memoryBudgetFromUrl(search: string | undefined): number | undefined {
  const value = Number(new URLSearchParams(search ?? '').get('memoryBudget'));
  return Number.isFinite(value) && value > 0 ? value * 2 ** 20 : undefined;
}
