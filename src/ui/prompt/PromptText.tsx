/** Prompt text with {{placeholders}} highlighted — as text nodes, never HTML. */
export function PromptText({ text }: { text: string }) {
  const parts = text.split(/(\{\{[^{}\s]+\}\})/g);
  return (
    <pre className="prompt-text">
      {parts.map((p, i) => (/^\{\{[^{}\s]+\}\}$/.test(p) ? <mark key={i} className="placeholder" title="placeholder (a variable or a snapshot scrub token)">{p}</mark> : p))}
    </pre>
  );
}
