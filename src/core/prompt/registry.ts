// Section ids (P…) are those of docs/dsh-log-rules.md.
import { VARIABLE_NAME } from './interpolate.ts';
import { compareCodeUnits, orderTools, validateToolOrder } from './tool-order.ts';
import type {
  AssembleContext, AssembleListener, AssembledSection, PromptAssembly, PromptBuild, PromptContextDef,
  PromptSectionDef, ScopeKey, ToolProvider, ToolSchema, VariableProvider,
} from './types.ts';

/**
 * A model of DSH's `ctx.systemPrompt` registry (P1):
 * one global layer plus one per scope, with scope-chain shadowing, and
 * assemble() as DSH runs it. Used to preview a prompt and to explain rules;
 * logs never contain the registry itself.
 */

/** The registrations one layer owns (P1.1). Maps keep insertion order. */
interface Layer {
  sections: Map<string, PromptSectionDef>;
  contexts: Map<string, PromptContextDef>;
  variables: Map<string, VariableProvider>;
  toolProviders: Set<ToolProvider>;
  suppressors: Set<object>;
}

const newLayer = (): Layer => ({ sections: new Map(), contexts: new Map(), variables: new Map(), toolProviders: new Set(), suppressors: new Set() });

export interface PromptRegistryOptions {
  build?: PromptBuild;
  /** Deployment `toolOrder` (validated at construction, P1.5). */
  toolOrder?: readonly string[];
  /** Called on every registration and disposal (`system-prompt/change`, P1.1). */
  onChange?: () => void;
}

export type Dispose = () => void;

export class PromptRegistry {
  readonly build: PromptBuild;
  private readonly global = newLayer();
  private readonly scoped = new Map<ScopeKey, Layer>();
  private readonly parents = new Map<ScopeKey, ScopeKey | undefined>();
  private readonly listeners: { scope?: ScopeKey; listener: AssembleListener }[] = [];
  private readonly toolOrder: readonly string[] | undefined;
  private readonly onChange: () => void;

  constructor(options: PromptRegistryOptions = {}) {
    this.build = options.build ?? 'rc8';
    this.toolOrder = validateToolOrder(options.toolOrder);
    this.onChange = options.onChange ?? (() => {});
  }

  /** Declares a scope and its parent (an agent and the agent that spawned it). */
  defineScope(scope: ScopeKey, parent?: ScopeKey): void {
    this.parents.set(scope, parent);
  }

  section(def: PromptSectionDef, scope?: ScopeKey): Dispose {
    if (!Number.isFinite(def.order)) throw new TypeError(`prompt section "${def.name}" order must be a finite number`);
    return this.insertNamed(scope, 'sections', 'section', def.name, def);
  }

  context(def: PromptContextDef, scope?: ScopeKey): Dispose {
    if (!Number.isFinite(def.order)) throw new TypeError(`prompt context "${def.name}" order must be a finite number`);
    return this.insertNamed(scope, 'contexts', 'context', def.name, def);
  }

  variable(name: string, provider: VariableProvider, scope?: ScopeKey): Dispose {
    if (!VARIABLE_NAME.test(name)) throw new Error(`invalid prompt variable name "${name}" (must match ${String(VARIABLE_NAME)})`);
    return this.insertNamed(scope, 'variables', 'variable', name, provider);
  }

  tools(provider: ToolProvider, scope?: ScopeKey): Dispose {
    const layer = this.layerFor(scope);
    const entry: ToolProvider = (c) => provider(c); // a fresh identity per registration
    layer.toolProviders.add(entry);
    this.onChange();
    return this.once(() => layer.toolProviders.delete(entry));
  }

  suppressRuntimeContext(scope?: ScopeKey): Dispose {
    const layer = this.layerFor(scope);
    const token = {};
    layer.suppressors.add(token);
    this.onChange();
    return this.once(() => layer.suppressors.delete(token));
  }

  /** A `system-prompt/assemble` listener; scoped ones see only that scope's assemblies. */
  onAssemble(listener: AssembleListener, scope?: ScopeKey): Dispose {
    const entry = { scope, listener };
    this.listeners.push(entry);
    return this.once(() => this.listeners.splice(this.listeners.indexOf(entry), 1));
  }

  /** Existing layers along the scope's parent chain, farthest ancestor first (P1.3). */
  chainLayers(scope: ScopeKey | undefined): Layer[] {
    const chain: Layer[] = [];
    const seen = new Set<ScopeKey>();
    for (let s = scope; s !== undefined && !seen.has(s); s = this.parents.get(s)) {
      seen.add(s);
      const layer = this.scoped.get(s);
      if (layer) chain.unshift(layer);
    }
    return chain;
  }

  /** assemble(context), items 1–9 of P1.4, synchronously. */
  assemble(context: AssembleContext = {}): PromptAssembly {
    const newest = this.build === 'newest';
    const chain = this.chainLayers(context.scope);
    const layers = [this.global, ...chain];
    // 1. Suppression, variables (every provider runs; nearest wins), merged names.
    const suppressed = layers.some((l) => l.suppressors.size > 0);
    const variables: Record<string, string | undefined> = {};
    for (const layer of layers) for (const [name, provider] of layer.variables) variables[name] = provider(context);
    const sectionMap = mergeNamed(layers, (l) => l.sections);
    const contextMap = mergeNamed(layers, (l) => l.contexts);
    // 2. Tool providers: no shadowing, schemas re-projected and detached.
    const collected: ToolSchema[] = [];
    const knownNames = new Set<string>();
    for (const layer of layers) {
      for (const provider of layer.toolProviders) {
        const result = provider(context);
        const schemas = result.schemas.map((s) => {
          const tool: ToolSchema = { name: s.name, description: s.description, parameters: cloneJson(s.parameters) };
          if (newest && s.deferLoading === true) tool.deferLoading = true;
          return tool;
        });
        collected.push(...schemas);
        for (const name of result.knownNames ?? schemas.map((t) => t.name)) knownNames.add(name);
      }
    }
    // 3. Section order: rc.8 stable by order; newest by order then name.
    const defs = [...sectionMap.values()].sort(newest
      ? (a, b) => a.order - b.order || compareCodeUnits(a.name, b.name)
      : (a, b) => a.order - b.order);
    // 4. At most one complete section, checked after shadowing.
    const complete = defs.filter((d) => d.complete === true);
    if (complete.length > 1) {
      throw new Error(`multiple complete prompt sections are active: ${complete.map((d) => JSON.stringify(d.name)).join(', ')}`);
    }
    // 5. Resolve texts; copy the complete section.
    let completeCopy: AssembledSection | undefined;
    const sections = defs.map((d) => {
      const s: AssembledSection = { name: d.name, text: resolve(d.text, context) };
      if (newest && d.interpolate !== undefined) s.interpolate = d.interpolate;
      if (d.complete === true) completeCopy = { ...s };
      return s;
    });
    // 6. Contexts: not even evaluated when suppressed; stable by order only.
    const contexts = suppressed ? [] : [...contextMap.values()]
      .sort((a, b) => a.order - b.order)
      .map((d) => ({ name: d.name, text: resolve(d.text, context) }));
    // 7. Tools.
    const tools = orderTools(collected, this.toolOrder, knownNames);
    // 8. The scope-filtered waterfall.
    let assembly: PromptAssembly = { sections, contexts, tools, variables };
    for (const { scope, listener } of this.listeners.slice()) {
      if (scope === undefined || scope === context.scope) assembly = listener(assembly, context);
    }
    // 9. Restore the complete section and suppression after the waterfall.
    if (completeCopy === undefined && !suppressed) return assembly;
    return { ...assembly, sections: completeCopy ? [completeCopy] : assembly.sections, contexts: suppressed ? [] : assembly.contexts };
  }

  private layerFor(scope: ScopeKey | undefined): Layer {
    if (scope === undefined) return this.global;
    let layer = this.scoped.get(scope);
    if (!layer) this.scoped.set(scope, (layer = newLayer()));
    if (!this.parents.has(scope)) this.parents.set(scope, undefined);
    return layer;
  }

  private insertNamed<K extends 'sections' | 'contexts' | 'variables'>(
    scope: ScopeKey | undefined, key: K, what: string, name: string, value: Layer[K] extends Map<string, infer V> ? V : never,
  ): Dispose {
    const layer = this.layerFor(scope);
    const map = layer[key] as Map<string, unknown>;
    if (map.has(name)) {
      throw new Error(scope === undefined
        ? `prompt ${what} "${name}" is already registered (for a per-agent ${what === 'variable' ? 'value' : 'override'}, register through that agent's \`agent.ctx\` instead)`
        : `prompt ${what} "${name}" is already registered in this scope`);
    }
    map.set(name, value);
    this.onChange();
    return this.once(() => { if (map.get(name) === value) map.delete(name); });
  }

  private once(remove: () => void): Dispose {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      remove();
      this.onChange();
    };
  }
}

/** Global entries in insertion order, then each chain layer: nearest wins, keeping the first position (P1.3). */
function mergeNamed<V>(layers: Layer[], pick: (l: Layer) => Map<string, V>): Map<string, V> {
  const merged = new Map<string, V>();
  for (const layer of layers) for (const [name, value] of pick(layer)) merged.set(name, value);
  return merged;
}

function resolve(text: PromptSectionDef['text'], context: AssembleContext): string {
  return typeof text === 'function' ? text(context) : text;
}

/** A detached copy of JSON-like schema parameters (DSH uses structuredClone). */
function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneJson(v);
    return out;
  }
  return value;
}
