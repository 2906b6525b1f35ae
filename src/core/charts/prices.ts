import { hasUsage, type CallTokens } from './series.ts';

/**
 * What a model call cost (docs/open-and-navigate.md, "Charts"): its logged token buckets times a price
 * per million tokens. The table ships as data with the date and source of
 * each price; the user can edit it (the page keeps the edits locally). A
 * model with no price says so; nothing is guessed.
 */
export interface ModelPrice {
  /** Matches the call's provider when set (else any provider). */
  provider?: string;
  model: string;
  /** USD per 1M tokens. */
  cacheMiss: number;
  cacheHit: number;
  output: number;
  /** Cache writes, where a provider bills them apart (else billed as cache misses). */
  cacheWrite?: number;
  source: string;
  /** When the price was read from its source (YYYY-MM-DD), or 'edited' for the user's own. */
  checked: string;
  note?: string;
}

const DEEPSEEK_PRICING = 'DeepSeek API docs, Models & Pricing (api-docs.deepseek.com/quick_start/pricing)';
// Read on 2026-12-01 from a stored copy of the page made in August 2026 (it lists DeepSeek-V4-Pro-0813 and announces the change below).
const BEFORE_PEAK = 'the flat rate listed before the peak/off-peak billing DeepSeek announced from 2026-08-16 16:00 UTC (off-peak at half the peak rate): edit it for calls after that';

/** The prices this app ships. */
export const DEFAULT_PRICES: readonly ModelPrice[] = [
  { model: 'deepseek-v4-flash', cacheHit: 0.0028, cacheMiss: 0.14, output: 0.28, source: DEEPSEEK_PRICING, checked: '2026-12-01', note: BEFORE_PEAK },
  { model: 'deepseek-v4-pro', cacheHit: 0.003625, cacheMiss: 0.435, output: 0.87, source: DEEPSEEK_PRICING, checked: '2026-12-01', note: BEFORE_PEAK },
];

/** The price for a call's model: provider and model both matching first, then the model alone. */
export function priceFor(table: readonly ModelPrice[], provider: string | undefined, model: string | undefined): ModelPrice | null {
  if (!model) return null;
  const m = model.toLowerCase();
  const p = provider?.toLowerCase();
  return table.find((e) => e.model.toLowerCase() === m && e.provider !== undefined && e.provider.toLowerCase() === p)
    ?? table.find((e) => e.model.toLowerCase() === m && e.provider === undefined) ?? null;
}

/** A call's cost in USD, or null when its model has no price or it reported no usage. */
export function callCost(call: CallTokens, price: ModelPrice | null): number | null {
  if (!price || !hasUsage(call)) return null;
  const perToken = (n: number | undefined, usdPerMillion: number) => ((n ?? 0) * usdPerMillion) / 1e6;
  return perToken(call.fresh, price.cacheMiss) + perToken(call.cacheRead, price.cacheHit)
    + perToken(call.cacheWrite, price.cacheWrite ?? price.cacheMiss) + perToken(call.output, price.output);
}

/** A price table read back from storage: entries that are not well-formed are dropped, never trusted. */
export function parsePriceTable(text: string | null): ModelPrice[] | null {
  if (!text) return null;
  let value: unknown;
  try { value = JSON.parse(text); } catch { return null; }
  if (!Array.isArray(value)) return null;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  return value.filter((e): e is ModelPrice => !!e && typeof e === 'object' && typeof e.model === 'string' && e.model.length > 0
    && num(e.cacheMiss) && num(e.cacheHit) && num(e.output) && (e.cacheWrite === undefined || num(e.cacheWrite))
    && (e.provider === undefined || typeof e.provider === 'string') && typeof e.source === 'string' && typeof e.checked === 'string');
}

/**
 * A whole session's cost from its per-model token use (a folder summary's
 * `modelUse`, models as `provider/model`): null when a model that logged
 * usage has no price (a partial sum would read as the whole).
 */
export function sessionCost(modelUse: readonly { model: string; tokensIn: number; tokensOut: number; cacheReads: number }[], table: readonly ModelPrice[]): number | null {
  let sum = 0;
  for (const use of modelUse) {
    if (!use.tokensIn && !use.tokensOut && !use.cacheReads) continue;
    const slash = use.model.indexOf('/');
    const price = priceFor(table, slash >= 0 ? use.model.slice(0, slash) : undefined, slash >= 0 ? use.model.slice(slash + 1) : use.model);
    if (!price) return null;
    sum += callCost({ call: 0, index: 0, breakReasons: [], fresh: use.tokensIn, cacheRead: use.cacheReads, output: use.tokensOut }, price) ?? 0;
  }
  return sum;
}
