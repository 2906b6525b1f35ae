/**
 * The machinery of an operation table: each operation the worker answers is
 * declared once — its request's field names, its handler, whether it may be
 * asked while a log loads, how its answer travels — and everything else is
 * derived from that one declaration, typed end to end: the request union
 * (`RequestOf`), the worker's dispatch (`answer`), the page's client
 * methods (`clientOf`) and in-process callers' methods (`methodsOf`).
 */

/** A handler: the host it runs against, then its arguments in the order of the request's `params` (and, for a progress operation, the progress callback last). */
type Handler<H> = (host: H, ...args: any[]) => unknown;

export interface Operation<H, F extends Handler<H> = Handler<H>, N extends readonly string[] = readonly string[], D = Awaited<ReturnType<F>>> {
  /** The request's fields, in the order of the handler's arguments after the host. */
  params: N;
  run: F;
  /** The handler's last argument reports progress; each report is posted as it comes. */
  progress?: boolean;
  /** May be asked while a log is loading (most questions wait for the whole load). */
  whileLoading?: boolean;
  /**
   * The answer as it is posted (its big arrays transferred, not copied), and
   * what the page makes of it: the handler's result again, or a form the page
   * unpacks later (the client's answer is `decode`'s).
   */
  encode?: (result: Awaited<ReturnType<F>>) => { wire: unknown; transfer: Transferable[] };
  decode?: (wire: any) => D;
  /** Buffers a progress report hands over instead of copying. */
  progressTransfer?: (progress: any) => Transferable[] | undefined;
}

/** Declares one operation of a table over host `H` (the names are kept as a tuple of literals). */
export function operation<H>() {
  return <F extends Handler<H>, const N extends readonly string[], D = Awaited<ReturnType<F>>>(def: Operation<H, F, N, D>): Operation<H, F, N, D> => def;
}

type AnyTable = Record<string, Operation<any, any, readonly string[], any>>;

/** A handler's arguments after the host. */
type ArgsOf<O> = O extends Operation<any, infer F, any, any> ? (F extends (host: any, ...args: infer A) => unknown ? A : never) : never;
/** The page's answer: what `decode` makes of the posted one, else the handler's result. */
type AnswerOf<O> = O extends Operation<any, any, any, infer D> ? D : never;
type NamesOf<O> = O extends Operation<any, any, infer N, any> ? N : never;

type Index<N> = keyof N & `${number}`;
/** The request's fields: each param name with its argument's type; an argument that may be undefined is an optional field. */
type FieldsOf<O, N = NamesOf<O>, A = ArgsOf<O>> =
  & { [K in Index<N> as undefined extends A[K & keyof A] ? never : N[K] & string]: A[K & keyof A] }
  & { [K in Index<N> as undefined extends A[K & keyof A] ? N[K] & string : never]?: A[K & keyof A] };

type Flat<T> = { [K in keyof T]: T[K] };

/** Every request of a table, as posted: `{ id, op, ...fields }`. */
export type RequestOf<T extends AnyTable> = { [K in keyof T & string]: Flat<{ id: number; op: K } & FieldsOf<T[K]>> }[keyof T & string];

/** The page's methods: the handler's arguments, the answer as a promise. */
export type ClientOf<T extends AnyTable> = { [K in keyof T]: (...args: ArgsOf<T[K]>) => Promise<AnswerOf<T[K]>> };

/** In-process callers' methods (tests, compare mode): the handler's arguments, its answer as it returns it. */
export type MethodsOf<T extends AnyTable> = { [K in keyof T]: T[K] extends Operation<any, infer F, any, any> ? (...args: ArgsOf<T[K]>) => ReturnType<F> : never };

/** What the worker posts back. */
export type Post = (msg: unknown, transfer?: Transferable[]) => void;

/** The arguments a request carries, in the handler's order, with the progress callback when the operation reports. */
function argsOf(def: Operation<any>, req: Record<string, unknown>, onProgress: ((p: unknown) => void) | null): unknown[] {
  const args = def.params.map((p) => req[p]);
  return onProgress ? [...args, onProgress] : args;
}

/**
 * Answers one request of `table` against `host`: progress as it comes, then
 * the answer (encoded, its buffers transferred) or the error. `extra` adds to
 * every answer (a lost file's notice); `refuse` may turn a request away
 * (a question asked while a log loads).
 */
export async function answer<H, T extends AnyTable>(table: T, host: H, req: { id: number; op: string } & Record<string, unknown>, post: Post, hooks: { extra?: () => object; refuse?: (def: Operation<H>) => string | null; failure?: (err: unknown) => object } = {}): Promise<void> {
  const extra = () => hooks.extra?.() ?? {};
  try {
    const def = table[req.op] as Operation<H> | undefined;
    if (!def) throw new Error(`unknown operation ${req.op}`);
    const refused = hooks.refuse?.(def);
    if (refused) throw new Error(refused);
    const onProgress = def.progress ? (progress: unknown) => post({ id: req.id, progress }, def.progressTransfer?.(progress)) : null;
    const result = await def.run(host, ...argsOf(def, req, onProgress));
    const { wire, transfer } = def.encode ? def.encode(result) : { wire: result, transfer: [] };
    post({ id: req.id, ok: true, result: wire, ...extra() }, transfer);
  } catch (err) {
    post({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err), ...hooks.failure?.(err), ...extra() });
  }
}

/** Sends a request and resolves with its answer; progress reports go to `onProgress`. */
export type Send = (req: { op: string } & Record<string, unknown>, onProgress?: (p: unknown) => void) => Promise<unknown>;

/** The page's client of a table: one method per operation, each sending its request with its fields named. */
export function clientOf<T extends AnyTable>(table: T, send: Send): ClientOf<T> {
  const client: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, def] of Object.entries(table)) {
    client[name] = (...args: unknown[]) => {
      const req: { op: string } & Record<string, unknown> = { op: name };
      def.params.forEach((p, i) => { if (args[i] !== undefined) req[p] = args[i]; });
      const onProgress = def.progress ? (args[def.params.length] as ((p: unknown) => void) | undefined) : undefined;
      const answered = send(req, onProgress);
      return def.decode ? answered.then(def.decode) : answered;
    };
  }
  return client as ClientOf<T>;
}

/** Methods that run each operation's handler in process against `host()` (no posting, no encoding). */
export function methodsOf<H, T extends AnyTable>(table: T, names: readonly (keyof T & string)[], host: (self: any) => H): Record<string, (this: unknown, ...args: unknown[]) => unknown> {
  const methods: Record<string, (this: unknown, ...args: unknown[]) => unknown> = {};
  for (const name of names) {
    const def = table[name];
    methods[name] = function (this: unknown, ...args: unknown[]) { return def.run(host(this), ...args); };
  }
  return methods;
}
