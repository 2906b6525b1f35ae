import { useSession } from '../../store/session.ts';

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/** Progress bar with bytes and events while a log loads; errors as readable messages. */
export function LoadStatus() {
  const status = useSession((s) => s.status);
  const progress = useSession((s) => s.progress);
  const name = useSession((s) => s.loadingName);
  const error = useSession((s) => s.error);
  const cancel = useSession((s) => s.cancel);
  const dismiss = useSession((s) => s.dismissError);
  return (
    <>
      {status === 'loading' && (
        <div className="load-status" role="status" aria-label="Loading">
          <span>Loading {name}…</span>
          <progress max={progress?.totalBytes ?? undefined} value={progress?.totalBytes ? progress.bytesIn : undefined} />
          <span className="mono">
            {progress ? `${mb(progress.bytesIn)}${progress.totalBytes ? ` of ${mb(progress.totalBytes)}` : ''} · ${progress.events.toLocaleString()} events · ${progress.phase}` : 'starting'}
          </span>
          <button onClick={cancel}>Cancel</button>
        </div>
      )}
      {error && (
        <div className="load-error" role="alert">
          <span>{error}</span>
          <button onClick={dismiss} aria-label="Dismiss">×</button>
        </div>
      )}
    </>
  );
}
