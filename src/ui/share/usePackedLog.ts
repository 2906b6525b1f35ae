import { useEffect, useState } from 'react';
import type { PackedLog } from '../../core/share/pack-log.ts';
import { useSession } from '../../store/session.ts';

/** The open log packed for sharing (redacted unless `redact` is false), made by the worker when asked. */
export function usePackedLog(redact: boolean, enabled = true): { packed: PackedLog | null; error: string | null } {
  const client = useSession((s) => s.client);
  const source = useSession((s) => s.workspace[s.active]?.source);
  const summary = useSession((s) => s.summary);
  const [state, setState] = useState<{ packed: PackedLog | null; error: string | null }>({ packed: null, error: null });
  useEffect(() => {
    if (!enabled || !client || !source || !summary || summary.partial) return;
    let live = true;
    setState({ packed: null, error: null });
    client.pack(source, redact).then(
      (packed) => { if (live) setState({ packed, error: null }); },
      (err: unknown) => { if (live) setState({ packed: null, error: err instanceof Error ? err.message : String(err) }); },
    );
    return () => { live = false; };
  }, [client, source, summary, redact, enabled]);
  return state;
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
