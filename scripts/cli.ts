// The dev scripts (bench, fuzz, conformance…) report errors by the same rules as
// the installed command; the code lives with it in src/cli/.
export * from '../src/cli/errors.ts';
