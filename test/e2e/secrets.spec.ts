/**
 * Secrets through the real extension (issue 12 item 9): a password the run typed stays masked when
 * the model repeats it later (in its thought, memory and answer), and a secret kept in Settings
 * never reaches the model: the model types its placeholder, the page gets the value, after the
 * person approved. Checked where it could leak: every request the fake model got, the panel, the
 * JSON and HTML exports, and the extension's IndexedDB itself. One browser and one fixture server
 * for the file; the page is control/login.html (it reports the user field and the password's length).
 */
import { test, expect, type Page } from './fixtures';
import { startFakeModel, type FakeModel, type ModelReply, type RecordedRequest } from '../fixtures/model/server';
import { labelIn, panelSend, shareExtension, waitForRun } from './support';
import type { StaticServer } from '../../scripts/static-server';
import type { RunView } from '../../src/core/messages';
import type { Settings } from '../../src/core/settings';

const KEY = 'sk-secrets-5e6f7a8b';
const PW = 'hunter22-secret-pw';
const CARD = '4111 1111 1111 1111';
let site: StaticServer;
let panel: Page;
const models: FakeModel[] = [];

shareExtension((e) => { ({ site, panel } = e); }, models);

function reply(thought: string, action: string, memory = '{}'): ModelReply {
  return { content: `Thought: ${thought}\nAction: ${action}\nMemory_Updated: ${memory}` };
}

async function fake(policy: (q: RecordedRequest) => ModelReply): Promise<FakeModel> {
  const m = await startFakeModel({ apiKey: KEY, policy });
  models.push(m);
  return m;
}

async function start(m: FakeModel, task: string): Promise<string> {
  const { runId } = await panelSend<{ runId: string }>(panel, 'run/start', {
    task, url: `${site.url}control/login.html`, config: { baseUrl: m.baseUrl, apiKey: KEY, model: 'glm-4.5v' },
  });
  return runId;
}

/** The panel's own approval card for the run's waiting action: checks it, then approves. */
async function approveCard(reason: RegExp, action: RegExp, never: string): Promise<void> {
  await panel.bringToFront();
  const card = panel.getByTestId('approval');
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('approval-reason')).toContainText(reason);
  await expect(card.getByTestId('approval-action')).toContainText(action);
  await expect(card).not.toContainText(never);
  await card.getByTestId('approve').click();
}

/** Everything the extension wrote to its IndexedDB (runs, steps; screenshots as sizes). */
function dumpDb(): Promise<string> {
  return panel.evaluate(() => new Promise<string>((resolve, reject) => {
    const open = indexedDB.open('webagent');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['runs', 'steps'], 'readonly');
      const runs = tx.objectStore('runs').getAll();
      const steps = tx.objectStore('steps').getAll();
      tx.oncomplete = () => resolve(JSON.stringify([runs.result, steps.result]));
      tx.onerror = () => reject(tx.error);
    };
  }));
}

/** The panel's JSON and HTML exports of the run, as the person would save them. */
function exports(runId: string): Promise<string[]> {
  return panel.evaluate(async (id) => {
    const w = window as unknown as { webagent: { exportRun(id: string, kind: 'json' | 'html'): Promise<{ text?: string; base64?: string }> } };
    const out: string[] = [];
    for (const kind of ['json', 'html'] as const) {
      const r = await w.webagent.exportRun(id, kind);
      out.push(r.text ?? atob(r.base64 ?? ''));
    }
    return out;
  }, runId);
}

function signins(): string[] {
  return site.events.filter((e) => e.type === 'signin').map((e) => e.value);
}

test('a typed password the model repeats later is masked in the next request, the panel, the exports and the database', async () => {
  site.events.length = 0;
  const model = await fake((q) => {
    const done = q.prompt?.history.length ?? 0;
    if (done === 0) return reply('Type the password.', `Type [${labelIn(q, /^Password$/)}]; [${PW}]`);
    if (done === 1) return reply(`I typed ${PW} into the password field; type it once more.`, `Type [${labelIn(q, /^Password$/)}]; [{{password:1}}]`, `{"password": "${PW}"}`);
    if (done === 2) return reply('Now sign in.', `Click [${labelIn(q, /^Sign in$/)}]`, `{"password": "${PW}"}`);
    return reply(`Signed in with ${PW}.`, `ANSWER; <content>Signed in, the password was ${PW}</content>`, `{"password": "${PW}"}`);
  });
  const runId = await start(model, `Sign in with the password ${PW}`);
  // The password guard asks first (auto mode); the card shows the password's placeholder.
  await approveCard(/password field/, /\{\{password:1\}\}/, PW);
  // The model types the placeholder it reads (a task that needs the password twice): asked again, filled in on the page.
  await expect.poll(() => model.requests.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await approveCard(/password field/, /\{\{password:1\}\}/, PW);
  const run = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
  expect(run.status).toBe('finished');
  expect(run.answer).toBe('Signed in, the password was {{password:1}}');
  // The real password was typed (its length reaches the page's report), not the mask nor the placeholder.
  expect(signins()).toEqual([`:${PW.length}`]);

  expect(model.requests).toHaveLength(4);
  // The first request has it (the person wrote it in the task); none after it was typed does,
  // though the model wrote it in its thought and memory.
  expect(JSON.stringify(model.requests[0].body)).toContain(PW);
  for (const q of model.requests.slice(1)) expect(JSON.stringify(q.body)).not.toContain(PW);
  const last = JSON.stringify(model.requests[2].body);
  expect(last).toContain('I typed {{password:1}} into the password field');
  expect(last).toContain('shown as {{password:1}}. To type it again, write its placeholder');
  expect(last).toContain('Sign in with the password {{password:1}}');

  await expect(panel.getByTestId('answer')).toContainText('the password was {{password:1}}');
  expect(await panel.locator('body').innerText()).not.toContain(PW);
  expect(JSON.stringify(await panelSend<RunView>(panel, 'run/get', { runId }))).not.toContain(PW);
  for (const text of await exports(runId)) {
    expect(text.length).toBeGreaterThan(1000);
    expect(text).toContain('{{password:1}}');
    expect(text).not.toContain(PW);
  }
  const db = await dumpDb();
  expect(db).toContain(runId);
  expect(db).not.toContain(PW);
});

test('a secret from Settings: the model only ever sees {{secret:card}}, the page gets the value after approval', async () => {
  site.events.length = 0;
  // Added through the Settings form: the value is hidden by default.
  await panel.bringToFront();
  await panel.locator('summary', { hasText: 'Settings' }).first().evaluate((el) => { (el.parentElement as HTMLDetailsElement).open = true; });
  await panel.getByTestId('secrets-section').locator('summary').click();
  await expect(panel.getByTestId('secrets-none')).toBeVisible();
  await panel.getByTestId('secret-add').click();
  await panel.getByTestId('secret-name').fill('card');
  await panel.getByTestId('secret-value').fill('123');
  await expect(panel.getByTestId('secrets-problem')).toContainText('at least 4 characters');
  await expect(panel.getByTestId('save-settings')).toBeDisabled();
  await panel.getByTestId('secret-value').fill(CARD);
  await expect(panel.getByTestId('secret-value')).toHaveAttribute('type', 'password');
  await panel.getByTestId('secret-show').click();
  await expect(panel.getByTestId('secret-value')).toHaveAttribute('type', 'text');
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  expect((await panelSend<Settings>(panel, 'settings/get', {})).secrets).toEqual([{ name: 'card', value: CARD }]);

  const model = await fake((q) => {
    const done = q.prompt?.history.length ?? 0;
    if (done === 0) return reply('Type the card number into the username field.', `Type [${labelIn(q, /^Username$/)}]; [{{secret:card}}]`, '{"card": "{{secret:card}}"}');
    if (done === 1) return reply('Sign in.', `Click [${labelIn(q, /^Sign in$/)}]`);
    return reply('Done.', 'ANSWER; <content>typed {{secret:card}}</content>');
  });
  // The person's task names the value itself: the model gets the placeholder instead.
  const runId = await start(model, `Sign in as the card ${CARD}`);
  await approveCard(/Passwords, saved secrets and attached files: this types your saved secret \{\{secret:card\}\}/, /\{\{secret:card\}\}/, CARD);
  const run = await waitForRun(panel, runId, (r) => r.status !== 'running', 'the run ends');
  expect(run.status).toBe('finished');
  // The page got the real value (the page reports the user field), typed once.
  expect(signins()).toEqual([`${CARD}:0`]);

  expect(model.requests.length).toBeGreaterThanOrEqual(3);
  for (const q of model.requests) expect(JSON.stringify(q.body)).not.toContain(CARD);
  const first = JSON.stringify(model.requests[0].body);
  expect(first).toContain('Sign in as the card {{secret:card}}');
  expect(first).toContain('The user keeps these values secret: {{secret:card}}.');

  expect(run.task).toBe('Sign in as the card {{secret:card}}');
  expect(run.steps[0].actionText).toContain('{{secret:card}}');
  expect(run.steps[0].approval?.decision).toBe('approved');
  expect(await panel.locator('body').innerText()).not.toContain(CARD);
  for (const text of await exports(runId)) {
    expect(text).toContain('{{secret:card}}');
    expect(text).not.toContain(CARD);
  }
  const db = await dumpDb();
  expect(db).toContain('{{secret:card}}');
  expect(db).not.toContain(CARD);

  // Deleted in the form: gone from storage after Save.
  await panel.getByTestId('secret-delete').click();
  await panel.getByTestId('save-settings').click();
  await expect(panel.getByTestId('settings-status')).toHaveText('Saved.');
  expect((await panelSend<Settings>(panel, 'settings/get', {})).secrets).toEqual([]);
});
