import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports, circles, readTree, type ImportRules } from './import-graph.ts';
import { IMPORT_RULES } from './layers.ts';

const repo = path.resolve(import.meta.dirname, '../..');

describe('the import rules of src/', () => {
  it('hold: no circle, no folder importing a layer above it, the core on its own packages', () => {
    const breaks = checkImports(readTree(repo, 'src'), IMPORT_RULES);
    expect(breaks.map((b) => `${b.rule}: ${b.message}`)).toEqual([]);
  });
});

describe('the import checks, on planted trees', () => {
  const rules: ImportRules = {
    layers: [{ folders: ['src/core/a'] }, { folders: ['src/core/b', 'src/core/c'] }, { folders: ['src/ui'], peers: true }],
    packages: [{ folder: 'src/core', allowed: ['zod'] }],
  };
  const tree = (files: Record<string, string>) => new Map(Object.entries(files));

  it('finds a circle of files, type-only imports included', () => {
    const breaks = checkImports(tree({
      'src/core/a/x.ts': "import type { Y } from './y.ts';\nexport type X = 1;",
      'src/core/a/y.ts': "import { type X } from './x.ts';\nexport type Y = X;",
    }), rules);
    expect(breaks).toEqual([{ rule: 'file circle', message: 'files import each other in a circle: src/core/a/x.ts → src/core/a/y.ts' }]);
  });

  it('finds a lower folder importing a higher one, and two core peers using each other', () => {
    const breaks = checkImports(tree({
      'src/core/a/x.ts': "export { b } from '../b/b.ts';",
      'src/core/b/b.ts': "import { c } from '../c/c.ts';\nexport const b = c;",
      'src/core/c/c.ts': 'export const c = 1;',
    }), rules);
    expect(breaks.map((b) => b.rule)).toEqual(['layer', 'peer']);
    expect(breaks[0].message).toBe('src/core/a/x.ts:1 imports src/core/b/b.ts: src/core/a is below src/core/b, so it may not use it');
  });

  it('finds the core importing the UI, React, or a file in no layer; comments are not imports', () => {
    const breaks = checkImports(tree({
      'src/core/a/x.ts': "// import { nope } from '../../ui/nope.ts';\nimport { useState } from 'react';\nimport { z } from 'zod';\nconst later = () => import('../../ui/panel.tsx');",
      'src/ui/panel.tsx': 'export const panel = 1;',
      'src/elsewhere/y.ts': 'export const y = 1;',
    }), rules);
    expect(breaks.map((b) => b.rule).sort()).toEqual(['layer', 'package', 'unlisted']);
  });

  it('reports each circle once, however it is entered, and a file importing itself', () => {
    expect(circles([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd'], ['d', 'd'], ['e', 'a']])).toEqual([['d'], ['a', 'b', 'c']]);
  });
});
