/** Saves text the user asked for as a file; nothing leaves the machine. */
export function downloadText(name: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadJson(name: string, value: unknown): void {
  downloadText(name, 'application/json', JSON.stringify(value, null, 2));
}
