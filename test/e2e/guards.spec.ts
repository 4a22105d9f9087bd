/**
 * Guards (src/core/guards/index.ts) through the real extension and the runner in auto mode: each rule
 * fires on its fixture control (the run pauses, the runner asks on stderr, `n` on stdin rejects it
 * and the action does not happen) and not on a harmless look-alike (the step runs with approval
 * 'auto'). The fixture pages report every click and input to the test server (/__event).
 *
 * Three runs keep browser launches down: form.html (password, payment, delete, send),
 * links.html -> downloads.html -> partners.html (download, leave-site) and checkout.html (Enter in
 * a card form by Type and by Key Return, a select's option, a shown password, a one-time code).
 * Each run's model does the look-alike first and then the dangerous control, rule after rule.
 *
 * Issue 12 item 5: away.html leaves the site by a form (its button, Enter in its field), an inline
 * handler (asked before), a script, a new tab and a server redirect (asked after the action: the
 * runner's `n` goes back or closes the tab, `y` keeps it); files.html starts real downloads
 * (Content-Disposition: attachment) that are paused, asked through the panel, kept or cancelled.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeModel } from '../fixtures/model/server';
import { runScripted, sequence, type Outcome, type Step } from './scripted-runs';
import { panelSend, serveFixtures, waitForRun } from './support';
import { launchWithExtension, openPanel, type Launched } from '../../scripts/browser';
import type { RunView } from '../../src/core/messages';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const SECRET = 'hunter2-secret';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-guards-'));

/** guards/ pages run by the runner with a scripted glm-web model (scripted-runs.ts). */
const run = (site: StaticServer, page: string, steps: Step[], input: string, name: string) => runScripted(agent, site, page, steps, input, path.join(out, `${name}.json`));

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
    expect(o.r.stderr).toMatch(/Proposed action: Type \[\d+\]; \[\{\{password:1\}\}\] <input> "Password"\n {2}Guard: this types into a password field/);
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
    const r = await agent.run(['--task', 'Delete it', '--url', `${site.url}guards/form.html`, '--base-url', model.baseUrl, '--trace', traceFile]);
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

test.describe('leaving the site by a form, a script or a redirect: asked before the action, and after it', () => {
  let site: StaticServer;
  let o: Outcome;

  test.beforeAll(async () => {
    site = await serveFixtures();
    o = await run(site, 'away.html', [
      { click: /^Find$/ }, // the form's action is on localhost
      { type: /^Partner search$/, text: 'shoes' }, // Type ends with Enter: submits that form
      { click: /^Filter$/ }, // a form on the same site
      { click: /^Visit our partner$/ }, // its inline onclick sets a URL on localhost
      { click: /^Continue$/ }, // a script takes the page to localhost
      { click: /^Open the partner page$/ }, // a script opens localhost in a new tab
      { click: /^Our shop$/ }, // a link on this site, redirected to localhost: kept
      { answer: 'checked' },
    ], 'n\nn\nn\nn not there\nn\ny\n', 'away');
  });
  test.afterAll(async () => { await site.close(); });

  test('a form posting to another site asks first, by its button and by Enter in its field; a form on the same site does not', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stdout).toContain('ANSWER: checked');
    expect(stepOn(o, 'Find').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(stepOn(o, 'Partner search').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(ids(o, 'click')).not.toContain('find');
    expect(ids(o, 'input')).not.toContain('q');
    expect(stepOn(o, 'Filter').approval).toEqual({ decision: 'auto', feedback: null });
    expect(ids(o, 'click')).toContain('filter');
    expect(o.events.filter((e) => e.type === 'view' && e.value === 'partner-shop.html')).toHaveLength(3); // only the scripts' visits (same tab, new tab) and the redirect
  });

  test('a button whose inline handler sets a URL on another site asks first', () => {
    expect(stepOn(o, 'Visit our partner').approval).toEqual({ decision: 'rejected', feedback: null });
    expect(ids(o, 'click')).not.toContain('visit');
    expect(o.r.stderr.match(/Guard: this leaves 127\.0\.0\.1 for localhost/g)).toHaveLength(3);
  });

  test('a button whose script goes to another site: the run pauses after the action, and a refusal goes back', () => {
    const step = stepOn(o, 'Continue');
    // It ran without asking (nothing in the page said where it goes), then the run asked.
    expect(step.approval).toEqual({ decision: 'auto', feedback: null });
    expect(ids(o, 'click')).toContain('continue');
    expect(o.r.stderr).toMatch(/Step \d+ ran; keep what it did\?/);
    expect(o.r.stderr).toContain('Guard: after this action the page left 127.0.0.1 for localhost (rule "leave-site")');
    expect(step.afterAction).toMatchObject({ rule: 'leave-site', decision: 'rejected', feedback: 'not there' });
    expect(step.afterAction?.url).toMatch(/^http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=continue$/);
    expect(step.result.ok).toBe(false);
    expect(step.observation).toMatch(/^The page went to http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=continue, another site than the task's; the user did not allow it, so the browser went back to http:\/\/127\.0\.0\.1:\d+\/guards\/away\.html\S* The user said: not there$/);
    // the next step saw the task's site again
    const next = o.trace.steps[step.index + 1];
    expect(next.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/guards\/away\.html/);
  });

  test('a link on the site that the server redirects to another site: asked after it, and kept when approved', () => {
    const step = stepOn(o, 'Our shop');
    expect(step.approval).toEqual({ decision: 'auto', feedback: null });
    expect(step.afterAction).toMatchObject({ rule: 'leave-site', decision: 'approved', reason: 'after this action the page left 127.0.0.1 for localhost' });
    expect(step.result.ok).toBe(true);
    expect(step.observation).toMatch(/^Success\. The page went to http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=redirect, another site than the task's; the user allowed it\.$/);
    const last = o.trace.steps[o.trace.steps.length - 1];
    expect(last.url).toMatch(/^http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=redirect$/);
    expect(o.r.stderr.split(PROMPT)).toHaveLength(7); // asked six times: four before an action, two after
  });

  test('a script that opens another site in a new tab: refused, that tab is closed and the run is back in its tab', () => {
    const step = stepOn(o, 'Open the partner page');
    expect(step.approval).toEqual({ decision: 'auto', feedback: null });
    expect(step.afterAction).toMatchObject({ rule: 'leave-site', decision: 'rejected' });
    expect(step.afterAction?.url).toMatch(/^http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=popup$/);
    expect(step.observation).toMatch(/^A new tab went to http:\/\/localhost:\d+\/guards\/partner-shop\.html\?from=popup, another site than the task's; the user did not allow it, so that tab was closed\. A new tab opened: http:\/\/localhost:\S+; you are now in it\. The tab closed; back in the previous tab: http:\/\/127\.0\.0\.1:\d+\/guards\/away\.html\S*\.$/);
    expect(step.tabs?.map((t) => t.change)).toEqual(['opened', 'closed']);
    const next = o.trace.steps[step.index + 1];
    expect(next.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/guards\/away\.html/);
  });
});

test.describe('downloads a page starts: held before any byte, asked even in auto mode, kept or undone', () => {
  let site: StaticServer;
  let browser: Launched;
  let model: FakeModel;
  type Item = { id: number; filename: string; state: string; paused: boolean; exists: boolean; url: string };
  const seen: { first?: RunView; second?: RunView; whileAsked?: Item[]; secondAsked?: Item[]; kept?: Item[]; end?: RunView; all?: Item[] } = {};

  test.beforeAll(async () => {
    site = await serveFixtures();
    browser = await launchWithExtension();
    const panel = await openPanel(browser);
    const worker = browser.context.serviceWorkers()[0];
    const items = () => worker.evaluate(() => chrome.downloads.search({})) as Promise<Item[]>;
    model = await sequence([{ click: /^Get the report$/ }, { click: /^Get the log$/ }, { answer: 'done' }]);
    const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
      task: 'Get the files', url: `${site.url}guards/files.html`,
      config: { baseUrl: model.baseUrl, apiKey: 'sk-guards-downloads', model: 'glm-4.5v', approveSteps: false },
    });
    seen.first = await waitForRun(panel, runId, (r) => r.pending?.index === 0 && !!r.pending.approval?.after, 'the report download is asked about');
    seen.whileAsked = await items();
    // The panel's card: Keep or Undo, nothing to edit (the action ran).
    await expect(panel.getByTestId('approval-reason')).toContainText(`this action started a download: "report-2024.csv" (application/octet-stream, 256 KB) from ${new URL(site.url).host}`);
    await expect(panel.getByTestId('approve')).toContainText('Keep');
    await expect(panel.getByTestId('edit')).toHaveCount(0);
    await panel.getByTestId('approve').click();
    seen.second = await waitForRun(panel, runId, (r) => r.pending?.index === 1 && !!r.pending.approval?.after, 'the log download is asked about');
    seen.secondAsked = await items();
    await expect(panel.getByTestId('reject')).toContainText('Undo');
    await panel.getByTestId('reject-feedback').fill('not the log');
    await panel.getByTestId('reject').click();
    seen.end = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
    await expect.poll(async () => (await items()).find((i) => i.url.includes('report-2024'))?.state, { message: 'the kept download finishes', timeout: 30_000 }).toBe('complete');
    seen.all = await items();
  });
  test.afterAll(async () => {
    await browser?.close();
    await model?.close();
    await site.close();
  });

  test('a download is held at its response (the browser has not begun it) and the run asks, though no guard guessed it before the click', () => {
    const a = seen.first!.pending!.approval!;
    expect(a).toMatchObject({ rule: 'download', after: true, reason: `this action started a download: "report-2024.csv" (application/octet-stream, 256 KB) from ${new URL(site.url).host}` });
    // the server answered; the browser has no download of it while the person is asked
    expect(site.events).toContainEqual({ type: 'download', value: 'report-2024.csv' });
    expect(seen.whileAsked!.find((i) => i.url.includes('report-2024'))).toBeUndefined();
    expect(site.events.filter((e) => e.type === 'click').map((e) => e.value)).toEqual(['report', 'log']);
  });

  test('kept when approved: it finishes, and the model is told', () => {
    const step = seen.end!.steps[0];
    expect(step.approval).toEqual({ decision: 'auto', feedback: null });
    expect(step.afterAction).toMatchObject({ rule: 'download', decision: 'approved', downloads: [{ filename: 'report-2024.csv', size: 262144, type: 'application/octet-stream', site: new URL(site.url).host }] });
    expect(step.observation).toBe(`Success. The browser began downloading "report-2024.csv" (application/octet-stream, 256 KB) from ${new URL(site.url).host}; the download was kept.`);
    expect(seen.all!.find((i) => i.url.includes('report-2024'))).toMatchObject({ state: 'complete', exists: true });
  });

  test('refused: nothing is written, and the model is told', () => {
    expect(seen.secondAsked!.find((i) => i.url.includes('server-log'))).toBeUndefined();
    const step = seen.end!.steps[1];
    expect(step.afterAction).toMatchObject({ rule: 'download', decision: 'rejected', feedback: 'not the log', downloads: [{ filename: 'server-log.txt' }] });
    expect(step.result).toEqual({ ok: false, error: `The page started downloading "server-log.txt" (application/octet-stream, 256 KB) from ${new URL(site.url).host}; the user did not allow it, so nothing was saved. The user said: not the log` });
    expect(seen.all!.find((i) => i.url.includes('server-log'))).toBeUndefined();
    expect(seen.end!.status).toBe('finished');
  });
});
