// Units and the two statistics every bench figure uses.

export const MB = 1024 * 1024;

export const round = (x: number) => Math.round(x * 100) / 100;

export const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
