// Every subcommand of `dsh-devtools`, in the order --help lists them. A new
// command (diff, summary, export-html, serve-logs…) is a module beside these
// exporting a CliCommand, added here; nothing else changes.
import type { CliCommand } from '../registry.ts';
import { aroundCommand } from './around.ts';
import { callsCommand } from './calls.ts';
import { diffCommand } from './diff.ts';
import { exportOtlpCommand } from './export-otlp.ts';
import { findCommand } from './find.ts';
import { genLogCommand } from './gen-log.ts';
import { inspectCommand } from './inspect.ts';
import { openCommand } from './open.ts';
import { requestCommand } from './request.ts';
import { stateCommand } from './state.ts';
import { exportHtmlCommand } from './export-html.ts';
import { serveLogsCommand } from './serve-logs.ts';
import { summaryCommand } from './summary.ts';
import { whatifCommand } from './whatif.ts';

export const COMMANDS: readonly CliCommand[] = [
  openCommand, inspectCommand, diffCommand, whatifCommand, summaryCommand, genLogCommand, serveLogsCommand, exportHtmlCommand,
  // Small JSON answers for agents and scripts (SKILL.md shows how an agent uses them), and the ways out to other tools.
  callsCommand, aroundCommand, findCommand, stateCommand, requestCommand, exportOtlpCommand,
];
