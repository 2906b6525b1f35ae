import { events, userMessage } from './log-builder.ts';

const todo = (content: string, status: string) => ({ content, status });
export const TODOS_1 = [todo('Reproduce the bug', 'in_progress'), todo('Fix it', 'pending')];
export const TODOS_2 = [todo('Reproduce the bug', 'completed'), todo('Fix it', 'in_progress'), todo('Add a test', 'pending')];

/** A log whose todo list is written four times, twice with the value it already had (issue #17's seq 16 / 27). */
export const repeatedWrites = events(
  ['turn/start', { turn: 1 }],
  ['todo/write', { todos: TODOS_1 }],
  ['todo/write', { todos: structuredClone(TODOS_1) }],
  ['user/message', userMessage('u1', 'go on'), { surfaceOp: 'append' }],
  ['todo/write', { todos: TODOS_2 }],
  ['todo/write', { todos: structuredClone(TODOS_2) }],
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
);
