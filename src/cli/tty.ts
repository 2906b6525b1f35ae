// Terminal niceties that must never reach a pipe: colour only when the stream
// is a terminal that wants it (node's hasColors honours NO_COLOR, FORCE_COLOR
// and TERM=dumb), progress only on a stderr that is a terminal.
const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

export type Paint = (colour: Colour, text: string) => string;

export function painter(stream: NodeJS.WriteStream): Paint {
  const on = stream.isTTY === true && typeof stream.hasColors === 'function' && stream.hasColors();
  return on ? (colour, text) => `\x1b[${CODES[colour]}m${text}\x1b[0m` : (_colour, text) => text;
}

export interface Progress {
  /** Shows `label` (a fraction in 0..1 adds a percentage); throttled, first shown after a quarter second. */
  update(label: string, fraction?: number): void;
  /** Clears the line. */
  done(): void;
}

/** A one-line progress display on stderr; silent when stderr is not a terminal. */
export function progress(prefix: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  const started = Date.now();
  let last = 0;
  let shown = false;
  return {
    update(label, fraction) {
      const now = Date.now();
      if (now - started < 250 || now - last < 100) return;
      last = now;
      shown = true;
      const pct = fraction === undefined ? '' : ` ${Math.min(100, Math.floor(fraction * 100))}%`;
      stream.write(`\r\x1b[2K${prefix}: ${label}${pct}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
