import type { ProjectedLog } from '../../core/projections/project-log.ts';
import { HELPER_HEARTBEAT_MS, HELPER_SILENCE_MS, type Projector, type ProjectionJob } from '../projector.ts';

/** The helper's job for a file; null without a helper or when the file cannot be handed to it (the load then folds the units). */
export function startHelper(projector: Projector | null, file: Blob, maxLineChars: number | undefined): ProjectionJob | null {
  try {
    return projector?.project(file, { maxLineChars }) ?? null;
  } catch {
    return null;
  }
}

/**
 * The helper's answer, or nothing once it has been silent for
 * HELPER_SILENCE_MS (a helper that crashed never answers; the load then
 * folds the units itself). A working helper says so every few hundred ms.
 */
export function helperResult(job: ProjectionJob): Promise<ProjectedLog> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = new Promise<ProjectedLog>((resolve) => {
    const check = () => {
      if (Date.now() - job.lastHeard() > HELPER_SILENCE_MS) { job.cancel('silent'); resolve({ history: null, error: null }); }
      else timer = setTimeout(check, HELPER_HEARTBEAT_MS);
    };
    check();
  });
  return Promise.race([job.result, gone]).finally(() => clearTimeout(timer));
}
