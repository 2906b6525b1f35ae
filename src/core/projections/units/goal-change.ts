/**
 * Strict decoding of a `goal/change` payload (dsh-log-rules J4.2): version 1, exact
 * key sets per operation, blockedReason exactly when blocked. Returns
 * undefined for a value that is not a goal change; throws for a malformed one.
 */
export type GoalPhase = 'active' | 'paused' | 'blocked' | 'complete';
export interface GoalSnapshot {
  id: string;
  revision: number;
  objective: string;
  phase: GoalPhase;
  maxGoalRounds: number;
  blockedReason?: { code: string; message: string };
}
export type SnapshotOp = 'create' | 'edit' | 'pause' | 'resume' | 'complete' | 'block';
export type GoalChange =
  | { operation: SnapshotOp; goal: GoalSnapshot; roundsStarted: number; createdAt: number; updatedAt: number }
  | { operation: 'clear'; cleared: { id: string; revision: number }; clearedAt: number };

const SNAPSHOT_OPS = new Set(['create', 'edit', 'pause', 'resume', 'complete', 'block']);
const PHASES = new Set(['active', 'paused', 'blocked', 'complete']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (o: Record<string, unknown>, keys: string): boolean => Object.keys(o).sort().join(',') === keys;
const normalized = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0 && v === v.trim();

function int(v: unknown, field: string, min: 0 | 1): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new Error(`goal change ${field} must be a ${min ? 'positive' : 'non-negative'} safe integer`);
  }
  return v;
}

function decodeReason(v: unknown): { code: string; message: string } {
  if (!isRecord(v) || !keysAre(v, 'code,message')) throw new Error('goal change goal.blockedReason must have exactly code and message');
  if (typeof v.code !== 'string' || !/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/.test(v.code)) throw new Error('goal change goal.blockedReason.code must be lower-kebab-case');
  if (!normalized(v.message)) throw new Error('goal change goal.blockedReason.message must be non-empty and normalized');
  return { code: v.code, message: v.message };
}

function decodeGoal(v: unknown): GoalSnapshot {
  if (!isRecord(v)) throw new Error('goal change goal must be a record');
  if (typeof v.id !== 'string' || v.id.length === 0) throw new Error('goal change goal.id must be a non-empty string');
  if (!normalized(v.objective)) throw new Error('goal change goal.objective must be non-empty and normalized');
  if (typeof v.phase !== 'string' || !PHASES.has(v.phase)) throw new Error('goal change goal.phase is invalid');
  const phase = v.phase as GoalPhase;
  const keys = phase === 'blocked' ? 'blockedReason,id,maxGoalRounds,objective,phase,revision' : 'id,maxGoalRounds,objective,phase,revision';
  if (!keysAre(v, keys)) throw new Error(`goal change goal for phase ${phase} must have exactly ${keys} fields`);
  return {
    id: v.id,
    revision: int(v.revision, 'goal.revision', 1),
    objective: v.objective,
    phase,
    maxGoalRounds: int(v.maxGoalRounds, 'goal.maxGoalRounds', 1),
    ...(phase === 'blocked' ? { blockedReason: decodeReason(v.blockedReason) } : {}),
  };
}

export function decodeGoalChange(v: unknown): GoalChange | undefined {
  if (!isRecord(v) || v.kind !== 'goal/change') return undefined;
  if (v.version !== 1) throw new Error(`unsupported goal change version ${String(v.version)}`);
  if (v.operation === 'clear') {
    if (!keysAre(v, 'cleared,clearedAt,kind,operation,version')) throw new Error('goal clear change has wrong fields');
    const c = v.cleared;
    if (!isRecord(c) || !keysAre(c, 'id,revision') || typeof c.id !== 'string' || c.id.length === 0) {
      throw new Error('goal clear tombstone must be exactly {id, revision}');
    }
    return { operation: 'clear', cleared: { id: c.id, revision: int(c.revision, 'cleared.revision', 1) }, clearedAt: int(v.clearedAt, 'clearedAt', 0) };
  }
  if (typeof v.operation !== 'string' || !SNAPSHOT_OPS.has(v.operation)) throw new Error('goal change operation is invalid');
  if (!keysAre(v, 'createdAt,goal,kind,operation,roundsStarted,updatedAt,version')) throw new Error('goal snapshot change has wrong fields');
  const createdAt = int(v.createdAt, 'createdAt', 0);
  const updatedAt = int(v.updatedAt, 'updatedAt', 0);
  if (updatedAt < createdAt) throw new Error('goal change updatedAt cannot precede createdAt');
  return {
    operation: v.operation as SnapshotOp,
    goal: decodeGoal(v.goal),
    roundsStarted: int(v.roundsStarted, 'roundsStarted', 0),
    createdAt,
    updatedAt,
  };
}
