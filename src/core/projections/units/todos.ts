import { z } from 'zod';
import type { ProjectionUnit } from '../types.ts';

const todoSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
const todosSchema = z.union([z.array(todoSchema), z.null()]);

export type TodoList = { content: string; status: string }[] | null;

/**
 * `todos` (dsh-log-rules J4.3): `todo/write` replaces the list with the event's own
 * array; `turn/start` clears it (the finished list stays visible until the
 * next turn); `null → null` keeps the reference. v2 in both generations.
 */
export const todosUnit: ProjectionUnit<TodoList, TodoList> = {
  key: 'todos',
  stateVersion: 2,
  stateSchema: todosSchema,
  viewSchema: todosSchema,
  reads: ['todo/write', 'turn/start'],
  init: () => null,
  apply: (state, event) => {
    if (event.type === 'todo/write') return event.data?.todos;
    if (event.type === 'turn/start') return null;
    return state;
  },
  view: (state) => state,
};
