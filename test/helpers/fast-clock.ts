import { vi } from 'vitest';

/**
 * A clock that runs fast (each Date.now() a second later): work that pauses once enough time has
 * passed (yieldEvery) pauses at every chance it has, as on a slow machine, so a test of what
 * happens between pauses does not depend on how fast this machine is.
 */
export function fastClock(): Disposable {
  let now = Date.now();
  const clock = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
  return { [Symbol.dispose]: () => clock.mockRestore() };
}
