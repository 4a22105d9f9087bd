/**
 * What the run tells the MODEL (observations, nudges): English, in every dialect, never
 * translated. What the person reads is in person-text.ts.
 */
import type { BudgetStop } from './budget';
import { PASSWORD_MASK, type DownloadNote } from './state';
import { downloadDetails } from '../guards/download-response';
import type { FileMeta, FilePick } from '../files';
import type { GuardId } from '../guards';
import { placeholderOf, typedPlaceholderOf } from '../secrets';

/** What pressing an element a guard stops would do, for the model (English, never translated). */
const PRESS_WOULD: Record<GuardId, string> = {
  password: 'would type or send a password, a secret or a file',
  payment: 'would place an order or pay',
  delete: 'would delete something',
  send: 'would send a message or post something',
  download: 'would download a file',
  'leave-site': 'would leave the site',
};

export const modelText = {
  /** an answer the task's JSON Schema refused (core/answer-schema.ts): the validator's message, and how many answers are left */
  answerRefused: (error: string, left: number) => `The answer does not match the JSON Schema the task gave: ${error.replace(/[.\s]+$/, '')}. ${left > 0 ? `Give the answer again as JSON that matches the schema (${left} more ${left === 1 ? 'try' : 'tries'}).` : 'No more answers are taken.'}`,
  /**
   * The element under the pointer was judged again just before a press (a page can swap it as the
   * pointer arrives) and it is not what was approved: nothing more was pressed.
   */
  pressChanged: (judged: string, now: string, rule: GuardId, press: number) => `When the pointer reached ${judged ? `"${judged}"` : 'the element'}, the element there was ${now ? `"${now}"` : 'another one'}, which ${PRESS_WOULD[rule]} and was not what the user approved; ${press > 1 ? 'the first click was made, the second was not' : 'nothing was pressed'}. Look at the page again before acting; do not press it unless the task asks for that.`,
  success: 'Success',
  /** the page after the action is the page before it (unchanged.ts) */
  nothingChanged: 'Done, but nothing on the page changed: the address, the labelled elements, their values and the screenshot are as they were before this action.',
  /** the page did not take the action's input in its time (core/deadline.ts inputDeadline) */
  inputTooLate: (s: number) => `The page did not take the action within ${s} s (its script seems stuck or very busy), so it may have been done in part or not at all; look at the page before repeating it.`,
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
  /** an action opened a file chooser (act/files.ts): what was chosen from the person's attached files */
  filesChosen: (names: string[]) => `The file chooser got the attached ${names.length > 1 ? 'files' : 'file'} ${quoted(names)}.`,
  filesRefused: (names: string[], accept: string) => `Not chosen, because the field accepts only ${accept}: ${quoted(names)}.`,
  filesLeft: (names: string[]) => `The field takes one file, so ${quoted(names)} ${names.length > 1 ? 'were' : 'was'} not chosen.`,
  noFilesAttached: 'This opened a file chooser, but the person has attached no files to this run, so no file was chosen. Ask the person to attach the file in the side panel, or say that the task needs a file.',
  noFileAccepted: (names: string[], accept: string) => `This opened a file chooser, but none of the attached files (${quoted(names)}) is of a type the field accepts (${accept}), so no file was chosen.`,
  fileChooserFailed: (why: string) => `This opened a file chooser, but the files could not be set: ${why}.`,
  /** a chooser the page opened while no action was under way (background/act/files.ts) */
  chooserUnasked: 'The page opened a file chooser by itself, not as a result of an action; it was refused and got no file.',
  /** a second chooser in one action: only the first is offered the files */
  chooserAgain: 'This opened another file chooser in the same action; it got no file. Open one file field at a time.',
  /** the user said no to giving the attached files to the field's site */
  chooserRefused: (names: string[], dest: string) => `This opened a file chooser on ${dest}; the user did not allow giving it ${quoted(names)}, so no file was chosen.`,
  /** the offer was gone when the user answered (the extension restarted meanwhile) */
  chooserLost: 'The file chooser this opened was gone before the user answered (the extension restarted), so no file was chosen. Open the file field again if the task needs the file.',
  /** a file chooser opened: what was picked from the attached files (core/files.ts pickFiles) */
  fileChoice: (attached: FileMeta[], pick: FilePick<FileMeta>, accept: string): string => {
    const names = (fs: FileMeta[]) => fs.map((f) => f.name);
    if (!attached.length) return modelText.noFilesAttached;
    if (!pick.chosen.length) return modelText.noFileAccepted(names(attached), accept);
    const parts = [modelText.filesChosen(names(pick.chosen))];
    if (pick.refused.length) parts.push(modelText.filesRefused(names(pick.refused), accept));
    if (pick.left.length) parts.push(modelText.filesLeft(names(pick.left)));
    return parts.join(' ');
  },
  mask: PASSWORD_MASK,
  /** a typed placeholder names no secret of the person's */
  noSuchSecret: (missing: string[], names: string[]) =>
    `Not typed: there is no secret named ${missing.map((n) => `"${n}"`).join(', ')}; ${names.length ? `the secrets are ${names.map(placeholderOf).join(', ')}` : 'the user keeps no secrets'}.`,
  /**
   * Added to the task in every dialect when the person keeps secrets: their names only. The
   * values are never sent; a placeholder the model types is filled in on the page.
   */
  secretsNote: (names: string[]) =>
    `The user keeps these values secret: ${names.map(placeholderOf).join(', ')}. You never see a secret's value; where the page or this task shows a placeholder, it stands for that value. To type a secret, write its placeholder exactly as the text to type (for example ${placeholderOf(names[0])}): it is filled in when typed.`,
  /**
   * Added to the task in every dialect once the run has typed a password: the model reads each as
   * its placeholder from then on, and types it back the same way (core/secrets/index.ts).
   */
  typedNote: (n: number) =>
    `${n === 1 ? 'The password typed earlier in this run is' : 'Passwords typed earlier in this run are'} shown as ${Array.from({ length: n }, (_, i) => typedPlaceholderOf(i)).join(', ')}. To type ${n === 1 ? 'it' : 'one'} again, write its placeholder exactly as the text to type: it is filled in when typed.`,
  /** an action refers to run variables nothing stored */
  noSuchVariable: (missing: string[], names: string[]) =>
    `Not run: no earlier action stored ${quoted(missing)}; ${names.length ? `the variables are ${quoted(names)}` : 'no variables are stored yet'}.`,
  /** exploring: an action a guard sees as paying, deleting or sending is not done */
  exploreNever: 'Not run: while exploring, nothing is paid, deleted or sent. Try another element.',
  /** an action stored a variable */
  stored: (name: string, chars: number, preview: string) => `Stored ${chars} characters in ${name}: "${preview}"`,
  /** an action stored a variable that holds a typed password */
  storedSecret: (name: string) => `Stored in ${name} (a password: not shown).`,
  /** what an action did that the guards look at after it (guards/after.ts), and what became of it */
  downloadKept: (list: DownloadNote[]) => `The browser began downloading ${downloadsText(list)}; the download was kept.`,
  /** `held`: none had begun (held at the response), so nothing was written */
  downloadUndone: (list: DownloadNote[]) => list.every((d) => d.id < 0)
    ? `The page started downloading ${downloadsText(list)}; the user did not allow it, so nothing was saved.`
    : `The browser began downloading ${downloadsText(list)}; the user did not allow it, so the download was cancelled and deleted.`,
  leftSiteKept: (url: string) => `The page went to ${url}, another site than the task's; the user allowed it.`,
  leftSiteUndone: (url: string, back: string) => `The page went to ${url}, another site than the task's; the user did not allow it, so the browser went back to ${back}.`,
  leftSiteClosed: (url: string) => `A new tab went to ${url}, another site than the task's; the user did not allow it, so that tab was closed.`,
  leftSiteStuck: (url: string) => `The page went to ${url}, another site than the task's; the user did not allow it, but the browser could not go back: do not go on there.`,
  /** requests the page sent that carried a secret, a password or a card number (core/guards/request-hold.ts), as the person decided */
  requestsSent: (what: string[]) => `The page sent ${quoted(what)} with sensitive data in it; the user allowed it.`,
  /** requests to another site held because a value the user gave was in the page (whatever they carried) */
  /** requests the page sent during the action that would order, pay, delete or send (guards/request-effect.ts), as the user decided */
  effectSent: (what: string[]) => `The page sent ${quoted(what)}, which looked like an order, a payment, a deletion or a message; the user allowed it.`,
  effectBlocked: (what: string[]) => `The page tried to send ${quoted(what)}, which looked like an order, a payment, a deletion or a message that the user had not approved; the user did not allow it, so the request was blocked and did not reach the site. Do not try another way to do it unless the task asks for it.`,
  awaySent: (what: string[]) => `The page sent ${quoted(what)} to another site while a value the user gave (a password, a secret or a card number) was in the page; the user allowed it.`,
  awayBlocked: (what: string[]) => `The page tried to send ${quoted(what)} to another site while a value the user gave (a password, a secret or a card number) was in the page; the user did not allow it, so nothing was sent.`,
  /** connections and prefetches refused while a value the user gave was in the page (they cannot be held for the user's answer) */
  connectionsRefused: (to: string[]) => `The page tried to reach ${quoted(to)} by a connection or a prefetch while a value the user gave (a password, a secret or a card number) was in it; that cannot wait for the user's answer, so it was refused.`,
  requestsBlocked: (what: string[]) => `The page tried to send ${quoted(what)} with sensitive data in it; the user did not allow it, so the request was blocked and did not reach the site.`,
  /** a page dialog the run answered Cancel (a prompt, a guarded confirm between actions) */
  cutByDialog: 'The action was cut short by a dialog of the page (see below).',
  afterTakeover: 'The user took over the browser before deciding whether to keep what this action did.',
  afterStopped: 'The run stopped before the user decided whether to keep what this action did: the downloads it began were removed.',
  /** the run stopped after the action's input began and before the page settled */
  stoppedMidAction: 'The run stopped while this action was being done: it may have happened.',
  userSaid: (feedback: string) => `The user said: ${feedback}`,
};

/** "a.exe" (application/x-msdownload, 2.9 MB) from example.com, … */
function downloadsText(list: DownloadNote[]): string {
  return list.map((d) => {
    const details = downloadDetails(d);
    return `"${d.filename}"${details ? ` (${details})` : ''}${d.site ? ` from ${d.site}` : ''}`;
  }).join(', ');
}

function quoted(names: string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

function budgetWords(b: BudgetStop): string {
  switch (b.kind) {
    case 'repeat': return `the same action (${b.action}) was proposed ${b.n} times on an unchanged page; the run was stopped so that it does not loop.`;
    case 'waits': return `the model waited ${b.n} times in a row; the run was stopped.`;
    case 'tokens': return `this run used ${b.used} tokens, over the cap of ${b.cap}.`;
    case 'cost': return `this run cost ${b.cost}, over the cap of ${b.cap}.`;
  }
}
