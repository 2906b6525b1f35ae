// Rewrites that must not change what the log means.
import type { Rng } from '../../generate/prng.ts';
import { joinLines } from '../base.ts';
import type { Mutator } from '../mutation.ts';
import { parseRow } from '../rows.ts';

function spaced(v: unknown, rng: Rng): string {
  if (Array.isArray(v)) return '[ ' + v.map((x) => spaced(x, rng)).join(' , ') + ' ]';
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (rng.chance(0.5)) entries.reverse();
    return '{ ' + entries.map(([k, x]) => `${JSON.stringify(k)} : ${spaced(x, rng)}`).join(' , ') + ' }';
  }
  return JSON.stringify(v);
}

export const harmless: Mutator = (base, rng) => {
  const variant = rng.pick(['crlf', 'bom', 'blank', 'respace', 'pad'] as const);
  let text: string;
  switch (variant) {
    case 'crlf': text = base.lines.map((l) => l + '\r\n').join(''); break;
    case 'bom': text = '\ufeff' + base.text; break;
    case 'blank': {
      const lines = base.lines.slice();
      for (let k = rng.int(1, 4); k > 0; k--) lines.splice(rng.int(0, lines.length), 0, rng.pick(['', ' ', '\t', '  \t ']));
      text = joinLines(base, lines);
      break;
    }
    case 'respace': text = joinLines(base, base.lines.map((l) => { const r = parseRow(l); return r && rng.chance(0.5) ? spaced(r, rng) : l; })); break;
    default: text = joinLines(base, base.lines.map((l) => (rng.chance(0.3) ? l + '   ' : l)));
  }
  return { mutator: 'harmless', detail: variant, text, encoding: 'plain', fault: { kind: 'none' }, equivalent: { sameEvents: true } };
};
