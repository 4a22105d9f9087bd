/**
 * A page's own dialogs during a run (alert, confirm, prompt, beforeunload; docs/guards.md): a
 * dialog blocks the page, the model cannot see it in a screenshot and has no action to answer
 * it, so the run answers it and says so, or asks the person:
 *
 * - a confirm whose words a guard cares about ("Delete your account?", "Pay $54.50 now?") waits
 *   for the person (OK only with their yes), unless they already approved this action for that
 *   rule; outside an action nobody is asked and it is answered Cancel;
 * - any other confirm, an alert and a beforeunload are answered OK, as a person pursuing the
 *   action would;
 * - a prompt is cancelled: the agent cannot type into a page dialog.
 *
 * The model is told each time what the page said and how it was answered (never a bare Success).
 * Pure: the background (background/dialogs.ts) reports the dialog and carries out the answer.
 */
import type { GuardHit, GuardId, GuardSettings } from '.';
import { hostKey } from '.';
import { matchPhrase, type TextRuleId } from './words';
import type { Translate } from '../i18n';
import { english } from '../locales';

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

export interface PageDialog {
  type: DialogType;
  /** what the page says in it (capped) */
  message: string;
}

export const MAX_DIALOG_CHARS = 300;

const WHY: Record<TextRuleId, string> = { payment: 'whyDialogPay', delete: 'whyDialogDelete', send: 'whyDialogSend' };

/**
 * A phrase of the rule said anywhere in a sentence, on word boundaries ("Are you sure you want to
 * delete your account?"): each word's start is tried as the start of the text.
 */
function mentions(text: string, phrases: Parameters<typeof matchPhrase>[1]): boolean {
  const t = text.replace(/[?？!！.。]+\s*$/u, '');
  const starts = [0];
  for (const m of t.matchAll(/[^\p{L}\p{N}]+/gu)) starts.push((m.index ?? 0) + m[0].length);
  return starts.some((i) => i < t.length && matchPhrase(t.slice(i), phrases) !== null);
}

/** An amount of money: a currency sign or code beside a number ("$54.50", "54,50 €", "EUR 12", "¥3000", "12.00 USD"). */
const MONEY = /(?:[$€£¥₹₩]|\b(?:USD|EUR|GBP|CNY|RMB|JPY|CHF|CAD|AUD)\b)\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥₹₩元円]|\b(?:USD|EUR|GBP|CNY|RMB|JPY|CHF|CAD|AUD)\b)/iu;
/** Words that tie an amount to the person paying it, in the guard languages. */
const CHARGED = /\b(?:charg|bill|debit|pay|paid|cost|total|price|order|purchas|subscri|renew)|扣款|收费|扣除|付款|支付|费用|abgebucht|berechnet|belastet|bezahl|débit|factur|pay[ée]|cobr|carg|pag|請求|支払|引き落と/iu;
/** What a deletion says about itself besides its verb: it cannot be undone. */
const FOR_GOOD = /gone for good|(?:can ?not|can't|cannot) be (?:undone|recovered|restored|reversed)|permanently|irreversibl|no way back|无法撤销|无法恢复|不可恢复|不能恢复|永久|nicht rückgängig|unwiderruflich|endgültig|définitivement|irréversible|ne peut pas être annulé|no se puede deshacer|permanentemente|irreversible|元に戻せ|復元できません/iu;

/** The rule a dialog's sentence trips by what it says beyond the rules' phrases: money charged, something gone for good. */
function cueOf(message: string): TextRuleId | null {
  if (MONEY.test(message) && CHARGED.test(message)) return 'payment';
  if (FOR_GOOD.test(message)) return 'delete';
  return null;
}

/**
 * The guard a confirm trips, or null: a rule's phrase anywhere in its sentence, or what the
 * sentence says of money charged ("… will be charged $54.50 …") or of something gone for good
 * ("… cannot be undone"), in the guard languages. `approved`: the rule the person approved for the action
 * that opened it (the question was theirs already).
 */
export function dialogHit(d: PageDialog, ctx: { site: string; guards: GuardSettings; approved?: GuardId | null; t?: Translate }): GuardHit | null {
  if (d.type !== 'confirm') return null;
  const t = ctx.t ?? english;
  const allowed = ctx.guards.allow[hostKey(ctx.site)] ?? [];
  for (const rule of ctx.guards.rules) {
    if (rule.id !== 'payment' && rule.id !== 'delete' && rule.id !== 'send') continue;
    if (!rule.on || allowed.includes(rule.id) || ctx.approved === rule.id) continue;
    if (mentions(d.message, rule.phrases) || cueOf(d.message) === rule.id) return { id: rule.id, reason: t(WHY[rule.id], d.message.trim().slice(0, 120)) };
  }
  return null;
}

/** How the run answers a dialog nobody needs to be asked about: OK, except a prompt (Cancel). */
export function autoAnswer(d: PageDialog): boolean {
  return d.type !== 'prompt';
}

/** What the model is told: what the page said and how it was answered (model text, English). */
export function dialogNote(d: PageDialog, accepted: boolean, by: 'agent' | 'user'): string {
  const said = `"${d.message.trim().slice(0, MAX_DIALOG_CHARS)}"`;
  switch (d.type) {
    case 'alert': return `The page showed a message in a dialog: ${said}; it was closed.`;
    case 'beforeunload': return accepted
      ? `The page warned before leaving it (${said}); the ${by} chose to leave.`
      : `The page warned before leaving it (${said}); the ${by} chose to stay, so the page did not change.`;
    case 'prompt': return `The page asked for text in a dialog (${said}); the agent cannot type into page dialogs, so it was cancelled and whatever the page wanted it for did not happen.`;
    case 'confirm': return accepted
      ? `The page asked in a dialog: ${said}; the ${by} answered OK.`
      : `The page asked in a dialog: ${said}; the ${by} answered Cancel, so what it asked about did not happen.`;
  }
}

/**
 * A dialog flood: this many dialogs within DIALOG_FLOOD_MS in one tab, during one action or
 * between two (a page that opens alert after alert, each one as the last is answered), ends the
 * page (background/dialogs.ts), so no page can hold an action, or the run, in a loop of dialogs.
 */
export const DIALOG_FLOOD = 5;
export const DIALOG_FLOOD_MS = 5000;

/** The times of the dialogs still within the window, now's included; a flood when there are DIALOG_FLOOD of them. */
export function dialogFlood(times: readonly number[], now: number): { times: number[]; flood: boolean } {
  const kept = [...times.filter((t) => now - t < DIALOG_FLOOD_MS), now];
  return { times: kept, flood: kept.length >= DIALOG_FLOOD };
}

/** What the model is told when a flood of dialogs was stopped (the model's text: never translated). */
export function dialogFloodNote(d: PageDialog): string {
  return `The page opened dialog after dialog (${DIALOG_FLOOD} within ${DIALOG_FLOOD_MS / 1000} s, the last: "${d.message.trim().slice(0, 120)}"), so the page was stopped and loaded again; whatever it was doing did not finish. Look at the page again; do not repeat the action that opened them unless the task needs it.`;
}

/** What the model is told when the page did not answer as the run began and was loaded again (the model's text: never translated). */
export function blockedAtStartNote(seconds: number): string {
  return `When the run began, the page did not answer within ${seconds} s (a dialog it had opened before the run could see it, or its busy script, held it), so it was loaded again.`;
}
