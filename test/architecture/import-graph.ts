import fs from 'node:fs';
import path from 'node:path';

/**
 * The import graph of a source tree, read as text (every `import … from`,
 * `export … from`, side-effect `import '…'` and `import('…')`, type-only
 * ones included: a type circle is still a circle to its reader), and the
 * checks the import rules make on it. Pure over a map of file texts, so the
 * checks themselves are tested on planted trees.
 */

/** Repo-relative path (forward slashes) → source text. */
export type SourceFiles = ReadonlyMap<string, string>;

export interface Import {
  from: string;
  /** A repo-relative file for a relative specifier, else the bare specifier (a package). */
  to: string;
  relative: boolean;
  line: number;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export function readTree(root: string, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(path.join(root, d), { withFileTypes: true })) {
      const rel = `${d}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|tsx|mts)$/.test(entry.name)) files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk(dir);
  return files;
}

export function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  // Comments are not imports (a doc comment may show one).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const m of code.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    const line = code.slice(0, m.index).split('\n').length;
    if (!spec.startsWith('.')) { out.push({ from: file, to: spec, relative: false, line }); continue; }
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    out.push({ from: file, to, relative: true, line });
  }
  return out;
}

export function graphOf(files: SourceFiles): Import[] {
  return [...files].flatMap(([file, text]) => importsOf(file, text));
}

/**
 * Strongly connected groups of more than one node (or a node importing
 * itself): every circle, each reported once, its members in a stable order.
 */
export function circles(edges: readonly (readonly [string, string])[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    next.get(a)!.add(b);
  }
  // Tarjan's algorithm, iterative (a long import chain must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; rest: string[] }[] = [];
    const enter = (node: string) => {
      index.set(node, counter); low.set(node, counter); counter++;
      stack.push(node); onStack.add(node);
      work.push({ node, rest: [...next.get(node)!].sort() });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1];
      const child = top.rest.shift();
      if (child !== undefined) {
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length) { const parent = work[work.length - 1].node; low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!)); }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const group: string[] = [];
      let n: string;
      do { n = stack.pop()!; onStack.delete(n); group.push(n); } while (n !== top.node);
      if (group.length > 1 || next.get(top.node)!.has(top.node)) found.push(group.sort());
    }
  }
  return found;
}

/**
 * One layer of the house: its folders (or single files), and whether they may
 * import each other (a feature panel may use another's widget; two core rule
 * families of one layer may not).
 */
export interface Layer {
  folders: readonly string[];
  peers?: boolean;
}

/** The folder a file belongs to: the longest listed folder (or file) that holds it. */
export function folderOf(file: string, layers: readonly Layer[]): string | null {
  let best: string | null = null;
  for (const layer of layers) for (const f of layer.folders) {
    if ((file === f || file.startsWith(`${f}/`)) && (best === null || f.length > best.length)) best = f;
  }
  return best;
}

export interface RuleBreak {
  rule: 'unlisted' | 'layer' | 'peer' | 'package' | 'file circle' | 'folder circle';
  message: string;
}

export interface ImportRules {
  layers: readonly Layer[];
  /** Folders (by prefix) and the packages they may import; a folder not listed may import any. */
  packages: readonly { folder: string; allowed: readonly string[] }[];
}

/** Every import that breaks a rule, and every circle, as messages a reader can act on. */
export function checkImports(files: SourceFiles, rules: ImportRules): RuleBreak[] {
  const breaks: RuleBreak[] = [];
  const rank = new Map<string, { layer: number; peers: boolean }>();
  rules.layers.forEach((l, k) => { for (const f of l.folders) rank.set(f, { layer: k, peers: l.peers === true }); });
  const edges: [string, string][] = [];
  const folderEdges: [string, string][] = [];
  for (const file of files.keys()) if (folderOf(file, rules.layers) === null) breaks.push({ rule: 'unlisted', message: `${file} is in no layer of the import rules` });
  for (const imp of graphOf(files)) {
    const home = folderOf(imp.from, rules.layers);
    if (home === null) continue;
    if (!imp.relative) {
      const limit = rules.packages.find((p) => imp.from.startsWith(`${p.folder}/`));
      const pkg = imp.to.startsWith('@') ? imp.to.split('/').slice(0, 2).join('/') : imp.to.split('/')[0];
      if (limit && !limit.allowed.includes(pkg)) breaks.push({ rule: 'package', message: `${imp.from}:${imp.line} imports '${imp.to}', which ${limit.folder} may not use (allowed: ${limit.allowed.join(', ') || 'none'})` });
      continue;
    }
    // Stylesheets and other assets draw no arrow.
    if (!/\.(ts|tsx|mts)$/.test(imp.to)) continue;
    edges.push([imp.from, imp.to]);
    const there = folderOf(imp.to, rules.layers);
    if (there === null) { breaks.push({ rule: 'unlisted', message: `${imp.from}:${imp.line} imports ${imp.to}, which is in no layer of the import rules` }); continue; }
    if (there === home) continue;
    folderEdges.push([home, there]);
    const a = rank.get(home)!;
    const b = rank.get(there)!;
    if (b.layer > a.layer) breaks.push({ rule: 'layer', message: `${imp.from}:${imp.line} imports ${imp.to}: ${home} is below ${there}, so it may not use it` });
    else if (b.layer === a.layer && !a.peers) breaks.push({ rule: 'peer', message: `${imp.from}:${imp.line} imports ${imp.to}: ${home} and ${there} are one layer whose folders do not use each other` });
  }
  for (const c of circles(edges)) breaks.push({ rule: 'file circle', message: `files import each other in a circle: ${c.join(' → ')}` });
  for (const c of circles(folderEdges)) breaks.push({ rule: 'folder circle', message: `folders import each other in a circle: ${c.join(' → ')}` });
  return breaks;
}
