/**
 * Guards (src/core/guards.ts) through the real extension and the runner in auto mode: each rule
 * fires on its fixture control (the run pauses, the runner asks on stderr, `n` on stdin rejects it
 * and the action does not happen) and not on a harmless look-alike (the step runs with approval
 * 'auto'). The fixture pages report every click and input to the test server (/__event).
 *
 * Three runs keep browser launches down: form.html (password, payment, delete, send),
 * links.html -> downloads.html -> partners.html (download, leave-site) and checkout.html (Enter in
 * a card form by Type and by Key Return, a select's option, a shown password, a one-time code).
 * Each run's model does the look-alike first and then the dangerous control, rule after rule.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/model/request-shape';
import { runAgentCli, serveFixtures, type CliResult } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

const PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const SECRET = 'hunter2-secret';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-guards-'));

type Step = { click: RegExp; tag?: string } | { type: RegExp; text: string; tag?: string } | { key: 'Return' } | { answer: string };

/** Step i does steps[i], whatever became of the earlier ones (a rejected step counts). */
function sequence(steps: Step[]): Promise<FakeModel> {
  return startFakeModel({
    policy: (req) => {
      const p = req.prompt as PromptParts;
      const s = steps[Math.min(p.history.length, steps.length - 1)];
      if ('answer' in s) return { content: `Thought: Done.\nAction: ANSWER; <content>${s.answer}</content>\nMemory_Updated: {}` };
      if ('key' in s) return { content: `Thought: I will press ${s.key}.\nAction: Key; [${s.key}]\nMemory_Updated: {}` };
      const find = 'click' in s ? s.click : s.type;
      const el = p.elements.find((e) => find.test(e.text) && (!('tag' in s) || !s.tag || e.tag === s.tag));
      if (!el) return { content: `Thought: No element matches ${find}.\nAction: Wait\nMemory_Updated: {}` };
      if ('click' in s) return { content: `Thought: I will click ${el.text}.\nAction: Click [${el.label}]\nMemory_Updated: {}` };
      return { content: `Thought: I will type into ${el.text}.\nAction: Type [${el.label}]; [${s.text}]\nMemory_Updated: {}` };
    },
  });
}

interface Outcome { r: CliResult; trace: Trace; events: Record<string, string>[]; model: FakeModel }

async function run(site: StaticServer, page: string, steps: Step[], input: string, name: string): Promise<Outcome> {
  const model = await sequence(steps);
  try {
    const traceFile = path.join(out, `${name}.json`);
    const r = await runAgentCli(['--task', 'Check the guards', '--url', `${site.url}guards/${page}`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(steps.length + 2)], {}, input);
    return { r, trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, events: [...site.events], model };
  } finally {
    await model.close();
  }
}

/** Which step targeted the element with this text (the model's step order is fixed, this checks it). */
function stepOn(o: Outcome, text: string) {
  const s = o.trace.steps.find((x) => {
    const a = x.action;
    const label = a && (a.type === 'click' || a.type === 'type') && a.target.kind === 'label' ? a.target.label : null;
    return label !== null && x.elements.find((e) => e.label === label)?.text === text;
  });
  if (!s) throw new Error(`no step acted on "${text}"; steps: ${o.trace.steps.map((x) => x.actionText).join(' | ')}`);
  return s;
}

const ids = (o: Outcome, type: string) => o.events.filter((e) => e.type === type).map((e) => e.value);

test.describe('on a form: password, payment, delete, send', () => {
  let site: StaticServer;
  let o: Outcome;

  test.beforeAll(async () => {
    site = await serveFixtures();
    o = await run(site, 'form.html', [
      { type: /^Password hint$/, text: 'my first pet' },
      { type: /^Password$/, text: SECRET },
      { click: /^Order history$/ },
      { click: /^Place order$/ },
      { click: /^Deleted items$/ },
      { click: /^Delete project$/ },
      { click: /^Sent mail$/ },
      { click: /^Send$/ },
      { answer: 'checked' },
    ], 'n\nn\nn not now\nn\n', 'form');
  });
  test.afterAll(async () => { await site.close(); });

  test('the run went through every step, pausing four times', () => {
    expect(o.r.stderr).not.toContain('Error:');
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stdout).toContain('ANSWER: checked');
    expect(o.r.stderr.split(PROMPT)).toHaveLength(5);
    expect(o.trace.steps.map((s) => s.approval?.decision)).toEqual(['auto', 'rejected', 'auto', 'rejected', 'auto', 'rejected', 'auto', 'rejected', 'auto']);
  });

  test('password: fires on a password field, not on a text field named "Password hint"', () => {
    const hint = stepOn(o, 'Password hint');
    expect(hint.approval).toEqual({ decision: 'auto', feedback: null });
    expect(hint.result).toEqual({ ok: true });
    const pw = stepOn(o, 'Password');
    expect(pw.approval).toEqual({ decision: 'rejected', feedback: null });
    expect(pw.result.ok).toBe(false);
    expect(o.r.stderr).toMatch(/Proposed action: Type \[\d+\]; \[••••\] <input> "Password"\n {2}Guard: this types into a password field/);
    expect(ids(o, 'input')).toContain('hint');
    expect(ids(o, 'input')).not.toContain('password');
    // what would have been typed stays out of everything the runner shows and keeps
    expect(pw.action).toMatchObject({ type: 'type', text: '••••' });
    expect(o.r.stderr + o.r.stdout).not.toContain(SECRET);
    expect(JSON.stringify(o.trace)).not.toContain(SECRET);
  });

  test('payment: fires on "Place order", not on "Order history"', () => {
    expect(stepOn(o, 'Order history').approval).toEqual({ decision: 'auto', feedback: null });
    expect(stepOn(o, 'Place order').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this clicks "Place order", which may pay or place an order');
    expect(ids(o, 'click')).toContain('order-history');
    expect(ids(o, 'click')).not.toContain('place-order');
  });

  test('delete: fires on "Delete project", not on "Deleted items"', () => {
    expect(stepOn(o, 'Deleted items').approval).toEqual({ decision: 'auto', feedback: null });
    const del = stepOn(o, 'Delete project');
    expect(del.approval).toEqual({ decision: 'rejected', feedback: 'not now' });
    expect(del.result).toEqual({ ok: false, error: 'The user rejected this action and said: not now' });
    expect(o.r.stderr).toContain('Guard: this clicks "Delete project", which may delete something');
    expect(ids(o, 'click')).toContain('deleted-items');
    expect(ids(o, 'click')).not.toContain('delete-project');
  });

  test('send: fires on "Send", not on "Sent mail"', () => {
    expect(stepOn(o, 'Sent mail').approval).toEqual({ decision: 'auto', feedback: null });
    expect(stepOn(o, 'Send').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this clicks "Send", which may send or publish something');
    expect(ids(o, 'click')).toContain('sent-mail');
    expect(ids(o, 'click')).not.toContain('send');
  });
});

test.describe('on links: download, leave-site', () => {
  let site: StaticServer;
  let o: Outcome;

  test.beforeAll(async () => {
    site = await serveFixtures();
    o = await run(site, 'links.html', [
      { click: /^Downloads page$/ }, // links.html -> downloads.html
      { click: /^webagent-1\.0\.zip$/ },
      { click: /^Save the report$/ },
      { click: /^Our partners$/ }, // downloads.html -> partners.html
      { click: /^Partner shop$/ },
      { answer: 'checked' },
    ], 'n\nn\nn\n', 'links');
  });
  test.afterAll(async () => { await site.close(); });

  test('the run went through every step, pausing three times', () => {
    expect(o.r.stderr).not.toContain('Error:');
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stdout).toContain('ANSWER: checked');
    expect(o.r.stderr.split(PROMPT)).toHaveLength(4);
    expect(o.trace.steps.map((s) => s.approval?.decision)).toEqual(['auto', 'rejected', 'rejected', 'auto', 'rejected', 'auto']);
  });

  test('download: fires on a link to a .zip and on a link with a download attribute, not on a "Downloads page" link', () => {
    const page = stepOn(o, 'Downloads page');
    expect(page.approval).toEqual({ decision: 'auto', feedback: null });
    expect(ids(o, 'view')).toContain('downloads.html');
    expect(stepOn(o, 'webagent-1.0.zip').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(stepOn(o, 'Save the report').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this clicks a link to a .zip file, which downloads it');
    expect(o.r.stderr).toContain('Guard: this clicks a download link');
    expect(ids(o, 'click')).toEqual(expect.arrayContaining(['downloads-page', 'partners']));
    expect(ids(o, 'click')).not.toContain('zip');
    expect(ids(o, 'click')).not.toContain('save-report');
  });

  test('leave-site: fires on a link to another host, not on a link on the same site', () => {
    const same = stepOn(o, 'Our partners');
    expect(same.approval).toEqual({ decision: 'auto', feedback: null });
    expect(ids(o, 'view')).toContain('partners.html');
    const away = stepOn(o, 'Partner shop');
    expect(away.approval).toEqual({ decision: 'rejected', feedback: null });
    expect(away.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/guards\/partners\.html$/);
    expect(o.r.stderr).toContain('Guard: this leaves 127.0.0.1 for localhost');
    expect(ids(o, 'click')).not.toContain('partner-shop');
    expect(ids(o, 'view')).not.toContain('partner-shop.html');
  });
});

test.describe('on a checkout page: Enter (Type or Key) in a card form, a select, a shown password, a one-time code', () => {
  let site: StaticServer;
  let o: Outcome;

  test.beforeAll(async () => {
    site = await serveFixtures();
    o = await run(site, 'checkout.html', [
      { type: /^Search orders$/, text: 'shoes' },
      { type: /^Card number$/, text: '4111 1111 1111 1111' },
      { click: /^Name on card$/ }, // focus in the card form
      { key: 'Return' },
      { type: /./, tag: 'select', text: 'Keep account' },
      { type: /./, tag: 'select', text: 'Delete account' },
      { type: /^Password$/, text: SECRET },
      { type: /^Verification code$/, text: '123456' },
      { answer: 'checked' },
    ], 'n\nn\nn\nn\nn\n', 'checkout');
  });
  test.afterAll(async () => { await site.close(); });

  const byAction = (re: RegExp) => {
    const s = o.trace.steps.find((x) => re.test(x.actionText));
    if (!s) throw new Error(`no step matches ${re}; steps: ${o.trace.steps.map((x) => x.actionText).join(' | ')}`);
    return s;
  };

  test('the run went through every step, pausing five times', () => {
    expect(o.r.stderr).not.toContain('Error:');
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stdout).toContain('ANSWER: checked');
    expect(o.r.stderr.split(PROMPT)).toHaveLength(6);
    expect(o.trace.steps.map((s) => s.approval?.decision)).toEqual(['auto', 'rejected', 'auto', 'rejected', 'auto', 'rejected', 'rejected', 'rejected', 'auto']);
  });

  test('Type with Enter in a search form runs (its button says "Search"); into a card field it asks, the form is not sent', () => {
    expect(stepOn(o, 'Search orders').approval).toEqual({ decision: 'auto', feedback: null });
    expect(ids(o, 'submit')).toEqual(['search']);
    expect(stepOn(o, 'Card number').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this presses Enter in a payment card form, which may pay');
    expect(ids(o, 'input')).toContain('q');
    expect(ids(o, 'input')).not.toContain('cardnumber');
  });

  test('Key Return with focus in the card form asks too (the focused field\'s form counts), and the form is not sent', () => {
    expect(byAction(/^Click \[\d+\]/).approval).toEqual({ decision: 'auto', feedback: null });
    expect(byAction(/^Key; \[Return\]/).approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr.split('Guard: this presses Enter in a payment card form, which may pay')).toHaveLength(3);
    expect(ids(o, 'submit')).toEqual(['search']);
  });

  test('typing an option into a select is judged like clicking it: "Keep account" runs, "Delete account" asks', () => {
    expect(byAction(/Keep account/).approval).toEqual({ decision: 'auto', feedback: null });
    expect(byAction(/Delete account/).approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this chooses "Delete account", which may delete something');
    expect(ids(o, 'select')).toEqual(['keep']);
  });

  test('a password shown as text and a one-time code field ask', () => {
    expect(stepOn(o, 'Password').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(stepOn(o, 'Verification code').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(o.r.stderr).toContain('Guard: this types into "Password", which looks like a password, PIN or one-time code field');
    expect(o.r.stderr).toContain('Guard: this types into "Verification code", which looks like a password, PIN or one-time code field');
    expect(ids(o, 'input')).not.toContain('shown-password');
    expect(ids(o, 'input')).not.toContain('code');
    expect(ids(o, 'submit')).not.toContain('signin');
  });
});

test('a guard pause with stdin not connected stops the run with the reason', async () => {
  const site = await serveFixtures();
  const model = await sequence([{ click: /^Delete project$/ }, { answer: 'never' }]);
  try {
    const traceFile = path.join(out, 'no-stdin.json');
    const r = await runAgentCli(['--task', 'Delete it', '--url', `${site.url}guards/form.html`, '--base-url', model.baseUrl, '--trace', traceFile]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('Guard: this clicks "Delete project", which may delete something');
    expect(r.stderr).toContain('Stopped: stdin closed while an action waited for approval');
    expect(site.events.filter((e) => e.type === 'click')).toEqual([]);
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    expect(trace.run.status).toBe('stopped');
    expect(trace.steps).toEqual([]);
  } finally {
    await model.close();
    await site.close();
  }
});
