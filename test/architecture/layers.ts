import type { ImportRules } from './import-graph.ts';

/**
 * The house's layers, lowest first (docs/architecture.md draws them): a
 * folder imports its own files and the folders of the layers below it, never
 * one above. In the spirit of Playwright's DEPS lists, but as one ordered
 * table: a new folder must be given a place here before it can import
 * anything, and that place says what it may use.
 */
export const IMPORT_RULES: ImportRules = {
  layers: [
    { folders: ['src/csp.ts'] },
    // The harness core, one rule family a layer, in the order the load folds a log.
    { folders: ['src/core/util', 'src/core/platform.d.ts'] },
    { folders: ['src/core/diagnostics'] },
    { folders: ['src/core/log'] },
    { folders: ['src/core/messages'] },
    { folders: ['src/core/workspace'] },
    { folders: ['src/core/surface'] },
    { folders: ['src/core/prompt'] },
    { folders: ['src/core/session'] },
    { folders: ['src/core/replay'] },
    { folders: ['src/core/requests', 'src/core/projections', 'src/core/jobs'] },
    { folders: ['src/core/search', 'src/core/charts', 'src/core/export'] },
    { folders: ['src/core/share', 'src/core/compare', 'src/core/generate'] },
    { folders: ['src/core/folder', 'src/core/follow', 'src/core/fuzz', 'src/core/whatif', 'src/core/otlp', 'src/core/notes'] },
    { folders: ['src/core/inspect.ts'] },
    // Small answers for agents, made from the results above.
    { folders: ['src/core/answers'] },
    // The worker and the command line both stand on the core alone.
    { folders: ['src/worker', 'src/cli'] },
    { folders: ['src/store'] },
    // The UI: shared pieces, widgets, the panels (which may use each other's widgets), the toolbar, the shell.
    { folders: ['src/ui/commands.ts', 'src/ui/counts.ts', 'src/ui/export.ts', 'src/ui/grown-rows-cache.ts', 'src/ui/lazy-panel.ts', 'src/ui/nav-targets.ts', 'src/ui/same-fields.ts', 'src/ui/hooks', 'src/ui/json', 'src/ui/search'], peers: true },
    { folders: ['src/ui/message', 'src/ui/diagnostics'], peers: true },
    {
      folders: ['src/ui/charts', 'src/ui/compare', 'src/ui/events', 'src/ui/folder', 'src/ui/follow', 'src/ui/inspector', 'src/ui/jobs', 'src/ui/projections',
        'src/ui/prompt', 'src/ui/requests', 'src/ui/scrubber', 'src/ui/share', 'src/ui/surface', 'src/ui/timeline', 'src/ui/whatif', 'src/ui/workspace', 'src/ui/notes', 'src/ui/palette'],
      peers: true,
    },
    { folders: ['src/ui/loading'] },
    { folders: ['src/ui/shell'] },
    { folders: ['src/main.tsx'] },
  ],
  packages: [
    // The core runs unchanged in a Web Worker, in Node and in tests: no React, no DOM, no Node.
    { folder: 'src/core', allowed: ['zod', 'fzstd', 'diff'] },
    { folder: 'src/worker', allowed: ['zod', 'fzstd', 'diff'] },
    { folder: 'src/store', allowed: ['zustand'] },
  ],
};
