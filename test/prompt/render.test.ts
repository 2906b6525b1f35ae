import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/core/prompt/interpolate.ts';
import {
  joinContextSections, renderContextSections, renderContextSnapshot, renderPrompt,
  RUNTIME_CONTEXT_CLEARED, RUNTIME_CONTEXT_FRAMING,
} from '../../src/core/prompt/render.ts';

const vars = { model: 'deepseek-v4-flash', cwd: '/work', empty: '', unset: undefined };
const section = (text: string, name = 's') => ({ name, text });
const run = (text: string, v: Record<string, string | undefined> = vars) => interpolate(section(text), v, 'section');

describe('interpolate (§2.1)', () => {
  it('substitutes complete {{name}} groups', () => {
    expect(run('model {{model}} in {{cwd}}')).toBe('model deepseek-v4-flash in /work');
    expect(run('{{empty}}x')).toBe('x');
  });

  it('never rescans substituted values', () => {
    expect(run('{{a}}', { a: '{{b}}' })).toBe('{{b}}');
  });

  it('keeps a {{ with no later }} as literal prose', () => {
    expect(run('a {{ b')).toBe('a {{ b');
    expect(run('{{ {{')).toBe('{{ {{');
  });

  it('throws malformed when a later }} exists, quoting the next 16 characters', () => {
    expect(() => run('x {{{model}}} y')).toThrow('malformed prompt variable reference at "{{{model}}} y…" in section "s" (references are complete simple {{name}} groups)');
    expect(() => run('{{a{b}} tail')).toThrow(/^malformed prompt variable reference at "\{\{a\{b\}\} tail…"/);
  });

  it('throws malformed for names outside [a-z][a-z0-9_]*', () => {
    for (const bad of ['{{}}', '{{ model }}', '{{Model}}', '{{1x}}']) {
      expect(() => run(bad)).toThrow(`malformed prompt variable reference "${bad}" in section "s" (variable names match /^[a-z][a-z0-9_]*$/)`);
    }
  });

  it('throws unknown for names that are not own properties, listing the registered ones', () => {
    expect(() => run('{{nope}}')).toThrow('unknown prompt variable "{{nope}}" in section "s"; registered variables: model, cwd, empty, unset');
    expect(() => run('{{constructor}}')).toThrow(/^unknown prompt variable "\{\{constructor\}\}"/);
    expect(() => interpolate(section('{{x}}'), {}, 'context')).toThrow('unknown prompt variable "{{x}}" in context "s"; registered variables: (none)');
  });

  it('throws when a registered variable has no value', () => {
    expect(() => run('{{unset}}')).toThrow('prompt variable "{{unset}}" has no value for this assembly (section "s")');
  });
});

describe('renderPrompt (§2.1)', () => {
  it('drops empty sections, keeps whitespace-only ones, joins with a blank line', () => {
    const sections = [section('A'), section(''), section('{{empty}}'), section(' '), section('B {{model}}')];
    expect(renderPrompt({ sections, variables: vars })).toBe('A\n\n \n\nB deepseek-v4-flash');
  });

  it('is empty when every section renders empty', () => {
    expect(renderPrompt({ sections: [section(''), section('{{empty}}')], variables: vars })).toBe('');
    expect(renderPrompt({ sections: [], variables: {} })).toBe('');
  });

  it('sends interpolate:false sections literally (newest)', () => {
    expect(renderPrompt({ sections: [{ name: 'lit', text: 'use {{model}} and {{{', interpolate: false }], variables: {} })).toBe('use {{model}} and {{{');
    expect(renderPrompt({ sections: [{ name: 'lit', text: '', interpolate: false }, section('x')], variables: {} })).toBe('x');
  });
});

describe('runtime-context rendering (§2.2)', () => {
  const contexts = [{ name: 'sandbox:policy', text: 'Policy for {{cwd}}.' }, { name: 'blank', text: '{{empty}}' }, { name: 'approval:policy', text: 'No prompts.' }];

  it('interpolates contexts with no opt-out and drops empty ones', () => {
    expect(renderContextSections({ contexts, variables: vars })).toEqual([
      { name: 'sandbox:policy', text: 'Policy for /work.' },
      { name: 'approval:policy', text: 'No prompts.' },
    ]);
    expect(() => renderContextSections({ contexts: [{ name: 'c', text: '{{x}}' }], variables: {} })).toThrow(/in context "c"/);
  });

  it('joins with the exact framing line, or returns empty', () => {
    expect(RUNTIME_CONTEXT_FRAMING).toBe('Current runtime context. This snapshot supersedes earlier runtime-context snapshots.');
    expect(joinContextSections([{ name: 'a', text: 'A' }, { name: 'b', text: 'B' }]))
      .toBe('Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nA\n\nB');
    expect(joinContextSections([])).toBe('');
    expect(joinContextSections([{ name: 'a', text: '' }])).toBe('');
    expect(renderContextSnapshot({ contexts, variables: vars })).toBe(`${RUNTIME_CONTEXT_FRAMING}\n\nPolicy for /work.\n\nNo prompts.`);
  });

  it('has the exact CLEARED marker', () => {
    expect(RUNTIME_CONTEXT_CLEARED).toBe('Current runtime context: none. Earlier runtime-context snapshots no longer apply.');
  });
});
