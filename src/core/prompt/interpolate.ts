// Section ids (P…) are those of docs/dsh-log-rules.md.
/**
 * Strict `{{name}}` interpolation (P2.1). One scanner
 * serves sections and contexts; only the error text names which it was.
 */

/** Valid variable names, also the registration rule (P1.1). */
export const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/;

/** A complete group at the scan position: `{{`, no braces, `}}` (P2.1). */
const GROUP_AT = /^\{\{([^{}]*)\}\}/;

export type InterpolationKind = 'section' | 'context';

export interface Interpolatable {
  name: string;
  text: string;
}

/**
 * Replaces every `{{name}}` with its value. A `{{` that does not start a
 * complete group is prose unless a `}}` follows anywhere later (P2.1);
 * substituted values are never rescanned (step 4).
 */
export function interpolate(input: Interpolatable, variables: Readonly<Record<string, string | undefined>>, kind: InterpolationKind): string {
  const { text, name: owner } = input;
  let out = '';
  let last = 0;
  let open = text.indexOf('{{');
  while (open >= 0) {
    const match = GROUP_AT.exec(text.slice(open));
    if (!match) {
      if (text.indexOf('}}', open + 2) >= 0) {
        throw new Error(`malformed prompt variable reference at "${text.slice(open, open + 16)}…" in ${kind} "${owner}" (references are complete simple {{name}} groups)`);
      }
      out += text.slice(last, open + 2);
      last = open + 2;
    } else {
      const name = match[1];
      if (!VARIABLE_NAME.test(name)) {
        throw new Error(`malformed prompt variable reference "{{${name}}}" in ${kind} "${owner}" (variable names match ${String(VARIABLE_NAME)})`);
      }
      // Own properties only: `constructor` is not a variable.
      if (!Object.hasOwn(variables, name)) {
        const known = Object.keys(variables);
        throw new Error(`unknown prompt variable "{{${name}}}" in ${kind} "${owner}"; registered variables: ${known.length ? known.join(', ') : '(none)'}`);
      }
      const value = variables[name];
      if (value === undefined) throw new Error(`prompt variable "{{${name}}}" has no value for this assembly (${kind} "${owner}")`);
      out += text.slice(last, open) + value;
      last = open + match[0].length;
    }
    open = text.indexOf('{{', last);
  }
  return out + text.slice(last);
}

/** A valid `{{name}}` group left in rendered text (P10: only via a value or interpolate:false). */
export function findVariableReference(text: string): string | undefined {
  const m = /\{\{([a-z][a-z0-9_]*)\}\}/.exec(text);
  return m ? m[0] : undefined;
}
