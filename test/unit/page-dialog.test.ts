/**
 * A page's dialogs (src/core/guards/page-dialog.ts): which confirm waits for the person, how the others
 * are answered, and what the model is told.
 */
import { describe, expect, it } from 'vitest';
import { autoAnswer, dialogHit, dialogNote, type PageDialog } from '../../src/core/guards/page-dialog';
import { DEFAULT_GUARDS, normalizeGuards } from '../../src/core/guards';

const site = 'https://shop.example/';
const confirm = (message: string): PageDialog => ({ type: 'confirm', message });
const ruleOf = (d: PageDialog, more: { approved?: 'delete' | 'payment' | null } = {}) => dialogHit(d, { site, guards: DEFAULT_GUARDS, ...more })?.id ?? null;

describe('dialogHit: a confirm a guard cares about waits for the person', () => {
  it('finds the rule\'s words anywhere in the sentence, in several languages', () => {
    expect(ruleOf(confirm('Are you sure you want to delete your account?'))).toBe('delete');
    expect(ruleOf(confirm('Pay $54.50 now?'))).toBe('payment');
    expect(ruleOf(confirm('This will place your order. Continue?'))).toBe('payment');
    expect(ruleOf(confirm('Send this message to 40 people?'))).toBe('send');
    expect(ruleOf(confirm('确定要删除这个账户吗？'))).toBe('delete');
    expect(ruleOf(confirm('確定要刪除這個帳號嗎？'))).toBe('delete');
    expect(ruleOf(confirm('Möchten Sie das Konto wirklich löschen?'))).toBe('delete');
  });

  it('money charged and something gone for good, without the rules\' verbs (issue 41)', () => {
    expect(ruleOf(confirm('Your card will be charged $54.50 today. Continue?'))).toBe('payment');
    expect(ruleOf(confirm('A total of 54,50 € will be billed to your account. OK?'))).toBe('payment');
    expect(ruleOf(confirm('将从您的账户扣款 ¥320。继续吗？'))).toBe('payment');
    expect(ruleOf(confirm('Es werden 12,00 EUR abgebucht. Fortfahren?'))).toBe('payment');
    expect(ruleOf(confirm('Your projects will be gone for good. OK?'))).toBe('delete');
    expect(ruleOf(confirm('This cannot be undone. Continue?'))).toBe('delete');
    expect(ruleOf(confirm('此操作无法撤销，继续吗？'))).toBe('delete');
    expect(ruleOf(confirm('Cette action est irréversible. Continuer ?'))).toBe('delete');
  });

  it('ordinary questions do not', () => {
    for (const m of ['Use this address for delivery?', 'Leave this page? Changes you made may not be saved.', 'Continue to the next step?', 'Are you sure?', 'Reload the list?',
      'Show prices in $ (USD)?', 'Items over $50 ship free. Show them?', 'You have 3 items. Continue?']) {
      expect(ruleOf(confirm(m)), m).toBeNull();
    }
  });

  it('an alert, a prompt and a beforeunload never ask', () => {
    expect(ruleOf({ type: 'alert', message: 'Your account was deleted.' })).toBeNull();
    expect(ruleOf({ type: 'prompt', message: 'Type DELETE to delete your account' })).toBeNull();
    expect(ruleOf({ type: 'beforeunload', message: '' })).toBeNull();
  });

  it('the rule the person approved for the action, a rule switched off or allowed on the site, does not ask again', () => {
    const d = confirm('Delete your account permanently?');
    expect(ruleOf(d, { approved: 'delete' })).toBeNull();
    expect(ruleOf(d, { approved: 'payment' })).toBe('delete');
    const off = normalizeGuards({ rules: [{ id: 'delete', on: false }] });
    expect(dialogHit(d, { site, guards: off })).toBeNull();
    expect(dialogHit(d, { site, guards: { ...DEFAULT_GUARDS, allow: { 'shop.example': ['delete'] } } })).toBeNull();
  });
});

describe('the answers and what the model is told', () => {
  it('OK for alerts, confirms and beforeunload; a prompt is cancelled', () => {
    expect(autoAnswer({ type: 'alert', message: '' })).toBe(true);
    expect(autoAnswer(confirm('Use this address?'))).toBe(true);
    expect(autoAnswer({ type: 'beforeunload', message: '' })).toBe(true);
    expect(autoAnswer({ type: 'prompt', message: 'Name?' })).toBe(false);
  });

  it('says what the page said and who answered how', () => {
    expect(dialogNote(confirm('Use this address?'), true, 'agent')).toBe('The page asked in a dialog: "Use this address?"; the agent answered OK.');
    expect(dialogNote(confirm('Delete it?'), false, 'user')).toBe('The page asked in a dialog: "Delete it?"; the user answered Cancel, so what it asked about did not happen.');
    expect(dialogNote({ type: 'prompt', message: 'Name?' }, false, 'agent')).toMatch(/cannot type into page dialogs, so it was cancelled/);
    expect(dialogNote({ type: 'alert', message: 'Saved.' }, true, 'agent')).toBe('The page showed a message in a dialog: "Saved."; it was closed.');
  });
});

describe('a flood of dialogs', () => {
  it('is DIALOG_FLOOD dialogs within DIALOG_FLOOD_MS; older ones fall out of the window', async () => {
    const { dialogFlood, DIALOG_FLOOD, DIALOG_FLOOD_MS } = await import('../../src/core/guards/page-dialog');
    let times: number[] = [];
    let flood = false;
    for (let i = 0; i < DIALOG_FLOOD - 1; i++) ({ times, flood } = dialogFlood(times, 1000 + i));
    expect(flood).toBe(false);
    expect(dialogFlood(times, 2000).flood).toBe(true);
    // the same count spread over more than the window is not a flood
    expect(dialogFlood(times, 1000 + DIALOG_FLOOD_MS + 10).flood).toBe(false);
  });
});
