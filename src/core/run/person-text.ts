import type { Translate } from '../i18n';
import { english } from '../locales';
import type { BudgetStop } from './budget';

/**
 * What the run tells the PERSON (stop reasons shown in the panel and printed by the runner), in the
 * person's language (`t`; the strings are in public/_locales). Kept apart from what the model reads
 * (model-text.ts), which is always English.
 */
export function personTextIn(t: Translate) {
  return {
    maxSteps: (n: number) => t('stopMaxSteps', n),
    unreadable: (count: number, problem: string, shown: string, truncated: boolean) =>
      t('stopUnreadable', count, problem, shown) + (truncated ? t('stopUnreadableCut') : t('stopUnreadableCheck')),
    /** a budget or loop guard stopped the run */
    budgetStop: (b: BudgetStop): string => {
      switch (b.kind) {
        case 'repeat': return t('stopRepeat', b.action, b.n);
        case 'waits': return t('stopWaits', b.n);
        case 'tokens': return t('stopTokens', b.used, b.cap);
        case 'cost': return t('stopCost', b.cost, b.cap);
      }
    },
    /** the run followed a new tab, or went back when its tab closed (panel, runner) */
    tabChange: (c: { change: 'opened' | 'closed'; url: string }) =>
      (c.change === 'opened' ? t('tabFollowed', c.url) : t('tabBack', c.url)),
    /** the model said the task cannot be done (glm-pc FAIL, glm-mobile infeasible) */
    modelGaveUp: (why: string) => (why ? t('stopGaveUpWhy', why) : t('stopGaveUp')),
  };
}

/** In English: the runner's and the tests' default. */
export const personText = personTextIn(english);
