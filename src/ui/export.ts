/** Saves text the user asked for as a file; nothing leaves the machine. */
export function downloadText(name: string, mime: string, text: string): void {
  downloadBlob(name, new Blob([text], { type: mime }));
}

/** Saves a file the user asked for (made in the page or by the worker); nothing leaves the machine. */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadJson(name: string, value: unknown): void {
  downloadText(name, 'application/json', JSON.stringify(value, null, 2));
}
