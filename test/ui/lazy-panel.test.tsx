// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyPanel } from '../../src/ui/lazy-panel.ts';

afterEach(cleanup);

/** A panel module that loads when `resolve` is called, counting its loads. */
function deferredModule(text: string) {
  const calls = { count: 0 };
  let resolve!: () => void;
  const ready = new Promise<void>((r) => { resolve = r; });
  const Panel = lazyPanel(() => { calls.count++; return ready.then(() => ({ label }: { label: string }) => <p>{text} {label}</p>); });
  return { Panel, calls, resolve };
}

const inSuspense = (node: React.ReactNode) => <Suspense fallback={<p>Loading panel…</p>}>{node}</Suspense>;

describe('a lazily loaded panel', () => {
  it('shows the fallback until its module is in when opened first, then itself; loads the module once', async () => {
    const { Panel, calls, resolve } = deferredModule('requests');
    render(inSuspense(<Panel label="a" />));
    expect(screen.getByText('Loading panel…')).toBeTruthy();
    await act(async () => { resolve(); await Promise.resolve(); });
    expect(await screen.findByText('requests a')).toBeTruthy();
    cleanup();
    render(inSuspense(<Panel label="b" />));
    expect(screen.getByText('requests b')).toBeTruthy();
    expect(calls.count).toBe(1);
  });

  it('renders at once, with no fallback, when preloaded before its first open', async () => {
    const { Panel, calls, resolve } = deferredModule('charts');
    const loading = Panel.preload();
    expect(Panel.preload()).toBe(loading);
    resolve();
    await loading;
    render(inSuspense(<Panel label="c" />));
    // In the first render, not after a suspension.
    expect(screen.getByText('charts c')).toBeTruthy();
    expect(screen.queryByText('Loading panel…')).toBeNull();
    expect(calls.count).toBe(1);
  });

  it('keeps a panel opened before its module was in mounted (its state kept) when it renders again', async () => {
    let resolve!: () => void;
    const ready = new Promise<void>((r) => { resolve = r; });
    const Counter = ({ label }: { label: string }) => {
      const [n, setN] = useState(0);
      return <button onClick={() => setN(n + 1)}>{label} {n}</button>;
    };
    const Panel = lazyPanel(() => ready.then(() => Counter));
    const view = render(inSuspense(<Panel label="clicks" />));
    await act(async () => { resolve(); await Promise.resolve(); });
    (await screen.findByText('clicks 0')).click();
    expect(await screen.findByText('clicks 1')).toBeTruthy();
    view.rerender(inSuspense(<Panel label="taps" />));
    expect(screen.getByText('taps 1')).toBeTruthy();
  });

  it('tries a failed load again on the next preload', async () => {
    let fail = true;
    const Panel = lazyPanel(async () => { if (fail) throw new Error('chunk missing'); return () => <p>prompt</p>; });
    await expect(Panel.preload()).rejects.toThrow('chunk missing');
    fail = false;
    await Panel.preload();
    render(inSuspense(<Panel />));
    expect(screen.getByText('prompt')).toBeTruthy();
  });
});
