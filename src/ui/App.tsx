import { useEffect, useState } from 'react';
import { inspect, type Inspection } from '../core/inspect.ts';
import { readLog } from '../core/log/reader.ts';

/** Reads a browser File through the same streaming core reader the CLI uses. */
async function readFile(file: Blob): Promise<Inspection> {
  const reader = file.stream().getReader();
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  return inspect(await readLog(chunks()));
}

export function App() {
  const [name, setName] = useState('demo-session.jsonl (demo)');
  const [result, setResult] = useState<Inspection | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetch('./demo/demo-session.jsonl')
      .then((r) => r.blob())
      .then(readFile)
      .then(setResult, (e: Error) => setError(e.message));
  }, []);

  const open = (file: File) => {
    setName(file.name);
    setResult(null);
    readFile(file).then(setResult, (e: Error) => setError(e.message));
  };

  return (
    <main
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const file = e.dataTransfer.files[0];
        if (file) open(file);
      }}
      style={{ padding: 16, minHeight: '100vh' }}
    >
      <h1 style={{ fontSize: 16 }}>DSH Devtools</h1>
      <p>
        Drop a DSH session log anywhere, or <input type="file" aria-label="Open log" onChange={(e) => e.target.files?.[0] && open(e.target.files[0])} />
      </p>
      {error && <p role="alert">{error}</p>}
      {result && (
        <section aria-label="Summary">
          <h2 style={{ fontSize: 14 }}>{name}</h2>
          <p>
            format v{result.format.version} · {result.eventCount} events · last seq {result.lastSeq} · {result.diagnostics.length} diagnostics
          </p>
          <ul className="mono">
            {result.diagnostics.map((d, i) => (
              <li key={i}>
                {d.severity} {d.code} {d.line ? `line ${d.line}` : ''} {d.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}
