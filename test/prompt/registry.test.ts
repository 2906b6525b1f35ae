import { describe, expect, it } from 'vitest';
import { classifyPromptError, findPromptFailures } from '../../src/core/prompt/errors.ts';
import { createHarnessPrompt, HARNESS_IDENTITY } from '../../src/core/prompt/harness.ts';
import { PromptRegistry } from '../../src/core/prompt/registry.ts';
import { renderPrompt } from '../../src/core/prompt/render.ts';
import { orderTools, TOOL_ORDER_REST, validateToolOrder } from '../../src/core/prompt/tool-order.ts';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: `${name} tool`, parameters: { type: 'object' }, ...extra });
const names = (xs: { name: string }[]) => xs.map((x) => x.name);

describe('registration (§1.1)', () => {
  it('rejects duplicates in the same layer, with global and scoped wording', () => {
    const r = new PromptRegistry();
    r.section({ name: 'a', order: 0, text: 'x' });
    expect(() => r.section({ name: 'a', order: 1, text: 'y' })).toThrow('prompt section "a" is already registered (for a per-agent override, register through that agent\'s `agent.ctx` instead)');
    r.section({ name: 'a', order: 1, text: 'y' }, 'agent');
    expect(() => r.section({ name: 'a', order: 1, text: 'y' }, 'agent')).toThrow('prompt section "a" is already registered in this scope');
    r.context({ name: 'c', order: 0, text: '' });
    expect(() => r.context({ name: 'c', order: 0, text: '' })).toThrow('prompt context "c" is already registered (for a per-agent override');
    r.variable('v', () => 'x');
    expect(() => r.variable('v', () => 'y')).toThrow('prompt variable "v" is already registered (for a per-agent value, register through that agent\'s `agent.ctx` instead)');
  });

  it('rejects non-finite orders with a TypeError and bad variable names', () => {
    const r = new PromptRegistry();
    expect(() => r.section({ name: 's', order: Number.NaN, text: '' })).toThrow(TypeError);
    expect(() => r.section({ name: 's', order: Infinity, text: '' })).toThrow('prompt section "s" order must be a finite number');
    expect(() => r.context({ name: 'c', order: Infinity, text: '' })).toThrow('prompt context "c" order must be a finite number');
    expect(() => r.variable('Model', () => 'x')).toThrow('invalid prompt variable name "Model" (must match /^[a-z][a-z0-9_]*$/)');
  });

  it('reports every registration and disposal as a change; disposal frees the name', () => {
    let changes = 0;
    const r = new PromptRegistry({ onChange: () => changes++ });
    const dispose = r.section({ name: 'a', order: 0, text: 'x' });
    dispose();
    dispose();
    expect(changes).toBe(2);
    expect(() => r.section({ name: 'a', order: 0, text: 'x' })).not.toThrow();
  });
});

describe('scope chain and shadowing (§1.3)', () => {
  it('nearest scope wins a name and keeps its merged position; new names append', () => {
    const r = new PromptRegistry();
    r.defineScope('parent');
    r.defineScope('child', 'parent');
    r.section({ name: 'a', order: 0, text: 'global a' });
    r.section({ name: 'b', order: 0, text: 'global b' });
    r.section({ name: 'a', order: 0, text: 'parent a' }, 'parent');
    r.section({ name: 'a', order: 0, text: 'child a' }, 'child');
    r.section({ name: 'c', order: 0, text: 'child c' }, 'child');
    expect(r.assemble({ scope: 'child' }).sections).toEqual([
      { name: 'a', text: 'child a' }, { name: 'b', text: 'global b' }, { name: 'c', text: 'child c' },
    ]);
    expect(r.assemble({ scope: 'parent' }).sections.map((s) => s.text)).toEqual(['parent a', 'global b']);
    expect(r.assemble().sections.map((s) => s.text)).toEqual(['global a', 'global b']);
  });

  it('runs every variable provider; the nearest value wins', () => {
    const r = new PromptRegistry();
    const calls: string[] = [];
    r.defineScope('agent');
    r.variable('model', () => { calls.push('global'); return 'g'; });
    r.variable('model', () => { calls.push('agent'); return 'a'; }, 'agent');
    expect(r.assemble({ scope: 'agent' }).variables).toEqual({ model: 'a' });
    expect(calls).toEqual(['global', 'agent']);
  });

  it('concatenates global and scoped tool providers without shadowing', () => {
    const r = new PromptRegistry();
    r.tools(() => ({ schemas: [tool('b'), tool('a')] }));
    r.tools(() => ({ schemas: [tool('a')] }), 'agent');
    expect(names(r.assemble({ scope: 'agent' }).tools)).toEqual(['a', 'a', 'b']);
  });

  it('any suppressor in the chain empties contexts without calling their providers', () => {
    const r = new PromptRegistry();
    let called = false;
    r.context({ name: 'c', order: 0, text: () => { called = true; return 'x'; } });
    r.suppressRuntimeContext('agent');
    expect(r.assemble({ scope: 'agent' }).contexts).toEqual([]);
    expect(called).toBe(false);
    expect(r.assemble().contexts).toEqual([{ name: 'c', text: 'x' }]);
  });
});

describe('assemble (§1.4)', () => {
  it('rc.8 sorts sections stably by order; newest breaks ties by code-unit name', () => {
    for (const build of ['rc8', 'newest'] as const) {
      const r = new PromptRegistry({ build });
      r.section({ name: 'z', order: 5, text: 'z' });
      r.section({ name: 'B', order: 5, text: 'B' });
      r.section({ name: 'a', order: -1, text: 'a' });
      expect(names(r.assemble().sections)).toEqual(build === 'rc8' ? ['a', 'z', 'B'] : ['a', 'B', 'z']);
    }
  });

  it('sorts contexts by order, ties in merged-map order in every build', () => {
    const r = new PromptRegistry({ build: 'newest' });
    r.context({ name: 'z', order: 1, text: 'z' });
    r.context({ name: 'a', order: 1, text: 'a' });
    r.context({ name: 'first', order: 0, text: 'f' });
    expect(names(r.assemble().contexts)).toEqual(['first', 'z', 'a']);
  });

  it('rejects more than one complete section after shadowing', () => {
    const r = new PromptRegistry();
    r.section({ name: 'x', order: 0, text: 'x', complete: true });
    r.section({ name: 'y', order: 1, text: 'y', complete: true });
    expect(() => r.assemble()).toThrow('multiple complete prompt sections are active: "x", "y"');
    r.section({ name: 'y', order: 1, text: 'y' }, 'agent');
    expect(r.assemble({ scope: 'agent' }).sections).toEqual([{ name: 'x', text: 'x' }]);
  });

  it('restores the complete section and suppression after the waterfall; tools and variables survive', () => {
    const r = new PromptRegistry();
    r.section({ name: 'only', order: 0, text: 'complete {{v}}', complete: true });
    r.section({ name: 'other', order: 1, text: 'dropped' });
    r.suppressRuntimeContext();
    r.onAssemble((a) => ({
      sections: [...a.sections, { name: 'added', text: 'x' }],
      contexts: [{ name: 'late', text: 'late' }],
      tools: [tool('w')],
      variables: { ...a.variables, v: 'V' },
    }));
    const a = r.assemble();
    expect(a.sections).toEqual([{ name: 'only', text: 'complete {{v}}' }]);
    expect(a.contexts).toEqual([]);
    expect(names(a.tools)).toEqual(['w']);
    expect(renderPrompt(a)).toBe('complete V');
  });

  it('runs scoped waterfall listeners only for their scope', () => {
    const r = new PromptRegistry();
    r.section({ name: 's', order: 0, text: 'base' });
    r.onAssemble((a) => ({ ...a, sections: [{ name: 's', text: 'scoped' }] }), 'agent');
    expect(r.assemble().sections[0].text).toBe('base');
    expect(r.assemble({ scope: 'agent' }).sections[0].text).toBe('scoped');
  });

  it('re-projects tool schemas: detached parameters, deferLoading only in newest and only when true', () => {
    const params = { type: 'object', properties: { a: { type: 'string' } } };
    for (const build of ['rc8', 'newest'] as const) {
      const r = new PromptRegistry({ build });
      r.tools(() => ({ schemas: [tool('a', { parameters: params, deferLoading: true, extra: 1 }), tool('b', { deferLoading: 'yes' })] }));
      const [a, b] = r.assemble().tools;
      expect(a.parameters).toEqual(params);
      expect(a.parameters).not.toBe(params);
      expect(Object.keys(a)).toEqual(build === 'newest' ? ['name', 'description', 'parameters', 'deferLoading'] : ['name', 'description', 'parameters']);
      expect('deferLoading' in b).toBe(false);
    }
  });

  it('passes resolved but uninterpolated texts; newest sections carry interpolate when set', () => {
    const r = new PromptRegistry({ build: 'newest' });
    r.section({ name: 'fn', order: 0, text: (c) => `scope=${String(c.scope)} {{x}}`, interpolate: false });
    expect(r.assemble({ scope: 'agent' }).sections).toEqual([{ name: 'fn', text: 'scope=agent {{x}}', interpolate: false }]);
  });
});

describe('tool order (§1.5)', () => {
  it('validates the config at load', () => {
    expect(() => validateToolOrder(['a', 'a', TOOL_ORDER_REST])).toThrow('toolOrder lists "a" more than once');
    expect(() => validateToolOrder([])).toThrow('toolOrder must contain the "<unlisted-tools>" rest entry (where unlisted tools are inserted)');
    expect(validateToolOrder(undefined)).toBeUndefined();
    expect(() => new PromptRegistry({ toolOrder: ['x'] })).toThrow(/rest entry/);
  });

  it('sorts by code-unit name without toolOrder', () => {
    expect(names(orderTools([tool('b'), tool('B'), tool('a')], undefined, new Set()))).toEqual(['B', 'a', 'b']);
  });

  it('walks toolOrder: rest marker inserts unlisted tools by name; listed names may match none or several', () => {
    const tools = [tool('x'), tool('c'), tool('a'), tool('x'), tool('b')];
    const known = new Set(['a', 'b', 'c', 'x', 'hidden']);
    expect(names(orderTools(tools, ['x', TOOL_ORDER_REST, 'hidden', 'a'], known))).toEqual(['x', 'x', 'b', 'c', 'a']);
  });

  it('rejects unregistered listed names and the reserved name', () => {
    expect(() => orderTools([tool('a')], ['q', 'r', TOOL_ORDER_REST], new Set(['b', 'a']))).toThrow('toolOrder lists unregistered tools "q", "r"; known tools: a, b');
    expect(() => orderTools([], ['q', TOOL_ORDER_REST], new Set())).toThrow('toolOrder lists unregistered tool "q"; known tools: (none)');
    expect(() => orderTools([tool(TOOL_ORDER_REST)], undefined, new Set())).toThrow('tool provider returned reserved tool name "<unlisted-tools>" (reserved for toolOrder\'s rest entry)');
  });

  it('uses knownNames from providers for validation', () => {
    const r = new PromptRegistry({ toolOrder: ['hidden', TOOL_ORDER_REST] });
    r.tools(() => ({ schemas: [tool('a')], knownNames: ['a', 'hidden'] }));
    expect(names(r.assemble().tools)).toEqual(['a']);
  });
});

describe('harness built-ins (§1.2)', () => {
  it('rc.8: identity at -100, persona at 0, shadowed by an agent-scoped persona', () => {
    const r = createHarnessPrompt('rc8', { persona: 'You are {{model}} in {{cwd}}.' }, { provider: 'p', model: 'm', cwd: '/w' });
    r.section({ name: 'tool:guide', order: 100, text: 'Use tools.' });
    expect(renderPrompt(r.assemble())).toBe(`${HARNESS_IDENTITY}\n\nYou are m in /w.\n\nUse tools.`);
    r.section({ name: 'deployment:persona', order: 0, text: '' }, 'sub');
    expect(renderPrompt(r.assemble({ scope: 'sub' }))).toBe(`${HARNESS_IDENTITY}\n\nUse tools.`);
  });

  it('newest: identity at -1000, persona prefix and suffix; options switch identity and context off', () => {
    const r = createHarnessPrompt('newest', { personaPrefix: 'pre', personaSuffix: 'post', includeHarnessIdentity: false, includeRuntimeContext: false });
    r.section({ name: 'plan', order: 500, text: 'plan' });
    r.context({ name: 'sandbox:policy', order: 110, text: 'ctx' });
    const a = r.assemble();
    expect(names(a.sections)).toEqual(['deployment:persona-prefix', 'plan', 'deployment:persona-suffix']);
    expect(a.contexts).toEqual([]);
    expect(Object.keys(a.variables)).toEqual(['provider', 'model', 'cwd']);
  });
});

describe('prompt failures in a log (§1.6)', () => {
  it('recognises each message prefix and finds the turns that ended on one', () => {
    expect(classifyPromptError('unknown prompt variable "{{x}}" in section "s"; registered variables: (none)')).toBe('unknown-variable');
    expect(classifyPromptError('malformed prompt variable reference "{{}}" …')).toBe('malformed-reference');
    expect(classifyPromptError('prompt variable "{{x}}" has no value for this assembly (section "s")')).toBe('variable-without-value');
    expect(classifyPromptError('multiple complete prompt sections are active: "a", "b"')).toBe('multiple-complete-sections');
    expect(classifyPromptError('toolOrder lists unregistered tool "x"; known tools: (none)')).toBe('tool-order');
    expect(classifyPromptError('tool provider returned reserved tool name "<unlisted-tools>"')).toBe('reserved-tool-name');
    expect(classifyPromptError('Error: step failed: unknown prompt variable "{{x}}"')).toBe('unknown-variable');
    expect(classifyPromptError('network down')).toBeUndefined();
    const failures = findPromptFailures([
      { type: 'turn/end', seq: 4, data: { turn: 1, reason: { kind: 'error', error: { code: 'UNKNOWN', message: 'toolOrder lists "a" more than once' } } } },
      { type: 'turn/end', seq: 9, data: { turn: 2, reason: { kind: 'completed' } } },
    ]);
    expect(failures).toEqual([{ seq: 4, turn: 1, kind: 'tool-order', message: 'toolOrder lists "a" more than once' }]);
  });
});
