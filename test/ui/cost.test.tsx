// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { loadText } from './harness.ts';
import { callCost, DEFAULT_PRICES, parsePriceTable, priceFor, sessionCost } from '../../src/core/charts/prices.ts';
import { ChartsPanel } from '../../src/ui/charts/ChartsPanel.tsx';
import { usePrices } from '../../src/ui/charts/price-store.ts';

afterEach(() => { cleanup(); usePrices.getState().reset(); });

describe('cost from the price table (issue #19)', () => {
  it('prices a call from its buckets; an unknown model has no price; a stored table drops bad rows', () => {
    const flash = priceFor(DEFAULT_PRICES, 'deepseek-official', 'deepseek-v4-flash')!;
    expect(callCost({ call: 0, index: 0, breakReasons: [], fresh: 1e6, cacheRead: 2e6, output: 1e6 }, flash)).toBeCloseTo(0.14 + 2 * 0.0028 + 0.28, 10);
    expect(priceFor(DEFAULT_PRICES, 'x', 'gpt-unknown')).toBeNull();
    expect(callCost({ call: 0, index: 0, breakReasons: [] }, flash)).toBeNull();
    expect(parsePriceTable('[{"model":"m","cacheMiss":1,"cacheHit":0,"output":2,"source":"s","checked":"edited"},{"model":"bad","cacheMiss":-1}]')).toHaveLength(1);
    expect(parsePriceTable('not json')).toBeNull();
    for (const p of DEFAULT_PRICES) expect(p.source.length > 0 && /^\d{4}-\d{2}-\d{2}$/.test(p.checked)).toBe(true);
    // A folder row: per-model use priced by provider/model; a used model without a price makes the sum unknown.
    const use = (model: string, tokensIn: number) => ({ model, tokensIn, tokensOut: 1e6, cacheReads: 0 });
    expect(sessionCost([use('deepseek-official/deepseek-v4-flash', 1e6)], DEFAULT_PRICES)).toBeCloseTo(0.42, 10);
    expect(sessionCost([use('deepseek-official/deepseek-v4-flash', 1e6), use('mock/mock', 5)], DEFAULT_PRICES)).toBeNull();
    expect(sessionCost([{ model: 'mock/mock', tokensIn: 0, tokensOut: 0, cacheReads: 0 }], DEFAULT_PRICES)).toBe(0);
  });

  it('an edit of the table is kept in local storage and changes the cost shown', async () => {
    await loadText(generateLog({ dialect: 'v0', seed: 8, turns: 3 }).text);
    render(<ChartsPanel />);
    const cost = await screen.findByRole('figure', { name: 'Cost' });
    const total = () => within(cost).getByText(/^\$/, { selector: 'strong' }).textContent;
    const before = total();
    const input = within(cost).getByRole('spinbutton', { name: 'output price of deepseek-v4-flash' });
    act(() => { fireEvent.change(input, { target: { value: '100' } }); });
    await waitFor(() => expect(total()).not.toBe(before));
    const kept = parsePriceTable(localStorage.getItem('dsh-devtools.prices'))!;
    expect(kept.find((p) => p.model === 'deepseek-v4-flash')).toMatchObject({ output: 100, checked: 'edited' });
  });
});
