// Section ids (J…, V…) are those of docs/dsh-log-rules.md.
import type { Dialect } from '../../log/types.ts';
import type { AnyUnit, Generation } from '../types.ts';
import { contextBreakdownUnit } from './context-breakdown.ts';
import { contextPressureUnit } from './context-pressure.ts';
import { goalUnit } from './goal.ts';
import { inboxUnit } from './inbox.ts';
import { planUnit } from './plan.ts';
import { sessionStatsUnit } from './session-stats.ts';
import { subagentUnit, subagentUnitOf } from './subagent.ts';
import { subagentCatalogUnit } from './subagent-catalog.ts';
import { subagentTimingUnit, subagentTimingUnitOf } from './subagent-timing.ts';
import { titleUnit } from './title.ts';
import { titleInputUnit } from './title-input.ts';
import { todosUnit } from './todos.ts';
import { tokenUsageUnit } from './token-usage.ts';
import { turnBoundaryUnit } from './turn-boundary.ts';
import { workingDirectoryUnit } from './working-directory.ts';

/** V0–V2 logs are rc.8's; V3+ come from the seed generation and later (J0). */
export const generationOf = (dialect: Dialect): Generation => (dialect === 'v0' ? 'rc8' : 'seed');

/** DSH's log-derivable domain units for a dialect, in drive order. */
export function unitsFor(dialect: Dialect): AnyUnit[] {
  const generation = generationOf(dialect);
  return [
    goalUnit(generation),
    planUnit,
    todosUnit,
    titleUnit,
    // Seed and later: the title service's host-only input (rc.8 has no such unit).
    ...(generation === 'seed' ? [titleInputUnit] : []),
    tokenUsageUnit,
    contextPressureUnit(dialect),
    contextBreakdownUnit(dialect),
    sessionStatsUnit,
    // DSH 0.2 (format 4): a parent's catalog of its children, before the child's own identity and timing.
    ...(dialect === 'v4' ? [subagentCatalogUnit] : []),
    // Format 4's children carry descriptor version 3 (0.2.1-alpha.2's SUBAGENT_DESCRIPTOR_VERSION).
    dialect === 'v4' ? subagentUnitOf(3) : subagentUnit,
    // 0.2's timing also says whether the last turn completed.
    dialect === 'v4' ? subagentTimingUnitOf(true) : subagentTimingUnit,
    inboxUnit(generation),
    turnBoundaryUnit,
    // Format 4 only: 0.2.1-alpha.2 added it without a format bump (V4.4).
    ...(dialect === 'v4' ? [workingDirectoryUnit] : []),
  ];
}

/**
 * Units whose value depends on deployment settings, not on the log
 * (J4.11–J4.12, and the reference's `projectionsOmitted`): listed, never faked.
 */
export const NOT_DERIVABLE: Readonly<Record<string, string>> = {
  permissions: 'the view depends on the host preset table and default sandbox/approval (dsh-log-rules J4.11)',
  imageLimits: 'the view is the live host attachment limits (dsh-log-rules J4.12)',
  sessionListMetadata: 'a host api-proxy unit; its list row depends on host state (dsh-log-rules J4.12)',
};
