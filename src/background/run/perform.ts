/** One executor per effect (core/run/effects.ts): each does its effect and says what came of it as an event. */
import type { Effect, RunEvent } from '../../core/run';
import type { Active } from './active';
import { actStep } from './act';
import { afterStep } from './after-action';
import { askStep } from './ask';
import { checkStep } from './check';
import { observeStep } from './observe';
import { probe } from './probe';

export async function perform(a: Active, eff: Effect): Promise<RunEvent | null> {
  switch (eff.kind) {
    case 'observe': return observeStep(a);
    case 'ask': return askStep(a, eff);
    case 'replay': {
      // a replay's recorded action stands in for the model's reply
      const r = eff.next;
      if (!r.ok) return { type: 'stop', at: Date.now(), reason: r.reason };
      return { type: 'replayed', at: Date.now(), action: r.action, memory: r.memory, from: r.from, target: await probe(a.state, r.action) };
    }
    case 'check': return checkStep(a, eff);
    case 'act': return actStep(a, eff);
    case 'after': return afterStep(a, eff);
    case 'wait':
    case 'none':
      return null;
  }
}
