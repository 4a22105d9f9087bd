/**
 * What the run tells the MODEL (observations, nudges): English, in every dialect, never
 * translated. What the person reads is in person-text.ts.
 */
import type { BudgetStop } from './budget';
import { PASSWORD_MASK } from './state';

export const modelText = {
  success: 'Success',
  /** the worker was stopped mid-action */
  inputUnknown: 'The browser stopped the extension while this action was being done, so it may or may not have taken effect; look at the page before repeating it.',
  rejected: (feedback: string | null) => (feedback ? `The user rejected this action and said: ${feedback}` : 'The user rejected this action; try something else.'),
  tookOverBeforeRun: 'Not run: the user took over the browser before this action ran.',
  personActed: (moved: string) => `The user took over and acted in the browser themselves (${moved}). Continue the task from the current page.`,
  personMoved: (before: string, now: string) => (before === now ? `still on ${now}` : `page before: ${before}; page now: ${now}`),
  cutAtTokenLimit: ' Your reply was cut off at the token limit before it was complete: keep the Thought short.',
  noSuchLabel: (label: number, count: number) =>
    `There is no element with label [${label}]; ${count ? `labels on this page are 0 to ${count - 1}` : 'this page has no labelled elements'}.`,
  notRun: (why: string) => `Not run: ${why}`,
  repeatNudge: (n: number) => `You have proposed this same action ${n} times on this unchanged page and it has not helped; try a different approach.`,
  /** the action was not run because a budget or loop guard stopped the run */
  budgetStop: (b: BudgetStop) => `Not run: ${budgetWords(b)}`,
  /** a typed text went to the address bar (after an address-bar shortcut) */
  openedAddress: (url: string) => `The text was opened as an address: ${url}`,
  /** the run followed a tab the action opened, or went back when its tab closed */
  tabOpened: (url: string) => `A new tab opened: ${url}; you are now in it.`,
  tabClosed: (url: string) => `The tab closed; back in the previous tab: ${url}.`,
  /** a proposed action that did not run because the tab changed first */
  tabChangedBeforeRun: 'Not run: the tab changed before this action ran.',
  mask: PASSWORD_MASK,
};

function budgetWords(b: BudgetStop): string {
  switch (b.kind) {
    case 'repeat': return `the same action (${b.action}) was proposed ${b.n} times on an unchanged page; the run was stopped so that it does not loop.`;
    case 'waits': return `the model waited ${b.n} times in a row; the run was stopped.`;
    case 'tokens': return `this run used ${b.used} tokens, over the cap of ${b.cap}.`;
    case 'cost': return `this run cost ${b.cost}, over the cap of ${b.cap}.`;
  }
}
