// Reading a log from disk is shared by the installed command and the dev scripts and tests.
export * from '../src/cli/node-source.ts';
