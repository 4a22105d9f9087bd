import type { BudgetStop } from './budget';

/**
 * What the run tells the PERSON (stop reasons shown in the panel and printed by the runner).
 * Kept apart from what the model reads (model-text.ts), so the interface can be translated
 * without changing a single prompt.
 */
export const personText = {
  maxSteps: (n: number) => `Reached the maximum of ${n} steps without an answer.`,
  unreadable: (count: number, problem: string, shown: string, truncated: boolean) =>
    `The model's reply could not be read ${count} times in a row (last problem: ${problem}). Its last reply was: ${shown}. `
    + (truncated ? 'The last reply was cut off at the token limit: raise Max tokens in settings.' : 'Check that the model and dialect match; every raw reply is in the steps.'),
  /** a budget or loop guard stopped the run */
  budgetStop: (b: BudgetStop): string => {
    switch (b.kind) {
      case 'repeat': return `The model proposed the same action (${b.action}) ${b.n} times on an unchanged page; the run was stopped so that it does not loop.`;
      case 'waits': return `The model waited ${b.n} times in a row; the run was stopped.`;
      case 'tokens': return `This run used ${b.used} tokens, over the cap of ${b.cap} set in settings.`;
      case 'cost': return `This run cost ${b.cost}, over the cap of ${b.cap} set in settings.`;
    }
  },
  /** the run followed a new tab, or went back when its tab closed (panel, runner) */
  tabChange: (c: { change: 'opened' | 'closed'; url: string }) =>
    (c.change === 'opened' ? `The page opened a new tab; the agent followed it to ${c.url}.` : `The tab closed; the agent went back to ${c.url}.`),
  /** the model said the task cannot be done (glm-pc FAIL, glm-mobile infeasible) */
  modelGaveUp: (why: string) => `The model says the task cannot be done${why ? `: ${why}` : '.'}`,
};
