/** The history-image job: an observed step's kept pictures and its store write, made while the model thinks and the action runs. */
import type { Active } from './active';
import { commit } from './commit';

/**
 * The step's history images (the clean view, the labelled one as kept) and the store write of the
 * observed step, once: started when the model request left (or, without one, when the run needs
 * them), while the model thinks and the action runs (driver.ts joins it before the event that
 * ends the step). Resolves when they are committed. A job whose step was dropped (a tab change, a
 * take-over, a stop) is dropped too.
 */
export function startKeeping(a: Active, sent?: { encodeMs: number; requestMs: number }): Promise<void> {
  const job = a.keep;
  if (job) {
    a.keep = null;
    if (a.state.status === 'running' && a.state.pending?.index === job.index && a.state.pending.screenshot === job.shot) {
      a.keeping = job.run()
        .catch(() => ({ labelled: '', clean: '' }))
        .then((kept) => commit(a, { type: 'kept', at: Date.now(), index: job.index, kept, ...(sent ? { sent } : {}) }));
    }
  }
  return a.keeping ?? Promise.resolve();
}
