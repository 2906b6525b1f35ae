import { createElement, lazy, useState, type ComponentType, type ReactElement } from 'react';

/** A panel loaded on first use that can also be loaded ahead of it. */
export interface LazyPanel<P extends object> {
  (props: P): ReactElement;
  /** Loads the panel's module now (once); a failed load is tried again on the next call. */
  preload(): Promise<ComponentType<P>>;
}

/**
 * A panel whose code loads on first use, keeping the initial bundle small. Once its module is in
 * (opened before, or `preload`ed while the app was idle), it renders at once: React.lazy suspends
 * on its first render whatever the module's state, and React holds a Suspense boundary's
 * fallback for 300 ms before it shows what came in, so each lazy tab's first open took 300 ms
 * more than its work (its chunk fetched in about 20 ms).
 */
export function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>): LazyPanel<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () => (pending ??= load().then(
    (component) => (loaded = component),
    (err: unknown) => { pending = null; throw err; },
  ));
  const Deferred = lazy(() => preload().then((component) => ({ default: component }))) as unknown as ComponentType<P>;
  // Chosen once per mount: switching a mounted panel from the deferred form to the loaded one would remount it (its state lost).
  function Panel(props: P) {
    const [component] = useState<ComponentType<P>>(() => loaded ?? Deferred);
    return createElement(component, props);
  }
  return Object.assign(Panel, { preload });
}
