/**
 * The scripted demo model: its plans for the demo shop's tasks, its reply to any other task, the
 * flags of npm run demo (--keep) and npm run demo-model (--port), the settings --keep saves, and
 * `npm run demo-model` itself answering an OpenAI-compatible request (then stopped).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DEMO_PORT, DEMO_PROFILE, demoArgs, demoCatalog, demoGoals, demoModelArgs, demoReply, demoSettings, isWebStep, NOT_A_MODEL, NOT_PLAYED } from '../../scripts/demo-model';
import { DIALECTS } from '../../src/core/dialects/registry';
import { toMessages } from '../../src/core/dialects/request';
import { calibrationPrompt } from '../../src/core/calibrate';
import type { PromptParts } from '../../scripts/scripted-model';
import { normalizeSettings } from '../../src/core/settings';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('demo model plans', () => {
  it('reads the shop catalogue', () => {
    expect(demoCatalog().map((b) => b.title)).toContain('Clean Code');
  });
  it('plans any book of the shop in the format asked (paperback without a format)', () => {
    const hard = demoGoals('What does the hardcover of "Clean Code" cost?')!;
    expect(hard.map((g) => g.do)).toEqual(['type', 'click', 'click', 'click', 'answer']);
    expect(hard[0]).toMatchObject({ text: 'Clean Code' });
    expect(String((hard[4] as { from: RegExp }).from)).toContain('Hardcover');
    const paper = demoGoals('price of refactoring')!;
    expect(paper.map((g) => g.do)).toEqual(['type', 'click', 'answer']);
    expect(String((demoGoals('the e-book of Code Complete')!.at(-1) as { from: RegExp }).from)).toContain('E-book');
  });
  it('reads the page as it is now: a choice the person made during a take over counts as made', () => {
    const task = 'Find the price of the hardcover edition of "Clean Code"';
    const history = [
      'Thought: search\tAction:Type [3]; [Clean Code]\tObservation:Success',
      'Thought: open\tAction:Click [7]\tObservation:Success',
    ];
    const page = (format: string): PromptParts => ({
      text: '', imageUrl: '', task, history, memory: '',
      elements: [
        { label: 0, tag: 'a', text: 'Demo Books' },
        { label: 1, tag: 'select', text: format },
        { label: 2, tag: 'button', text: `Add ${format} to cart - ${format === 'Hardcover' ? '$44.99' : '$29.99'}` },
      ],
    });
    // the person chose Hardcover themselves: the model answers, instead of looking for the list's option
    expect(demoReply(page('Hardcover')).content).toMatch(/ANSWER; <content>\$44\.99<\/content>/);
    // nothing chosen yet: it opens the Format list, as the history says it should
    expect(demoReply(page('Paperback')).content).toMatch(/Click \[1\]/);
  });
  it('has no plan for other tasks', () => {
    expect(demoGoals('Book a flight to Paris')).toBeNull();
  });
});

describe('what the demo model plays', () => {
  const shot = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };
  const step = (id: string) => ({
    model: 'demo-scripted',
    messages: toMessages(DIALECTS[id].buildRequest({ task: 'Find the price of "Clean Code"', site: 'http://127.0.0.1/', now: new Date(0), history: [], memory: '', marks: [], shot, apps: [] }), ['data:image/png;base64,AAAA']),
  });
  it('a glm-web step is told apart from every other dialect\'s step, the coordinate check and a plain chat; what is not played is said in one message', () => {
    const ids = Object.keys(DIALECTS);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.filter((id) => isWebStep(step(id)))).toEqual(['glm-web']);
    expect(isWebStep({ model: 'demo-scripted', messages: [{ role: 'user', content: [{ type: 'text', text: calibrationPrompt() }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] })).toBe(false);
    expect(isWebStep({ model: 'demo-scripted', messages: [{ role: 'user', content: 'Hello, who are you?' }] })).toBe(false);
    expect(NOT_PLAYED).toMatch(/glm-web/);
    // not read as "the model takes no pictures" or "too long" (model-errors.ts) by the run
    expect(NOT_PLAYED).not.toMatch(/image|vision|multimodal|context|too long|maximum.*tokens/i);
  });
});

describe('demo flags and settings', () => {
  it('--keep, --port and --dialect', () => {
    expect(demoArgs([])).toEqual({ keep: false });
    expect(demoArgs(['--keep'])).toEqual({ keep: true });
    expect(() => demoArgs(['--kep'])).toThrow();
    expect(demoModelArgs([])).toEqual({ port: DEFAULT_DEMO_PORT, dialect: 'glm-web' });
    expect(demoModelArgs(['--port', '9000', '--dialect', 'ui-tars'])).toEqual({ port: 9000, dialect: 'ui-tars' });
    expect(() => demoModelArgs(['--port', 'x'])).toThrow(/--port/);
    expect(() => demoModelArgs(['--dialect', 'appagent'])).toThrow(/does not play it \(its model reads the numbered tags/);
    expect(() => demoModelArgs(['--dialect', 'nope'])).toThrow(/plays glm-web, glm-pc/);
  });
  it('--keep saves the scripted model as the endpoint and as a profile that says it is not a model', () => {
    const s = normalizeSettings(demoSettings('http://127.0.0.1:1234/v1'));
    expect(s).toMatchObject({ baseUrl: 'http://127.0.0.1:1234/v1', model: 'demo-scripted', dialect: 'glm-web', apiKey: '' });
    expect(DEMO_PROFILE).toMatch(/not a model/);
    expect(s.profiles[DEMO_PROFILE]).toMatchObject({ baseUrl: 'http://127.0.0.1:1234/v1', model: 'demo-scripted' });
  });
});

/** npm run demo-model on a free port; resolves with its printed base URL and a stop function. */
function startCommand(port: number): Promise<{ baseUrl: string; out: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo-model-server.ts', '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const stop = async () => { if (child.exitCode === null) child.kill('SIGINT'); return exited; };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { void stop(); reject(new Error(`no base URL in 20 s: ${out}`)); }, 20_000);
    const read = (d: Buffer) => {
      out += d;
      const m = /Base URL:\s+(\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ baseUrl: m[1], out: () => out, stop }); }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () => { clearTimeout(timer); reject(new Error(`exited: ${out}`)); });
  });
}

describe('npm run demo-model', () => {
  it('prints the base URL and answers an OpenAI-compatible request: another dialect\'s is refused, a task it has no plan for is told it is not a model', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const cmd = await startCommand(port);
    try {
      expect(cmd.baseUrl).toBe(`http://127.0.0.1:${port}/v1`);
      expect(cmd.out()).toMatch(/NOT a real model/);
      const models = await (await fetch(`${cmd.baseUrl}/models`)).json() as { data: Array<{ id: string }> };
      expect(models.data.map((m) => m.id)).toEqual(['demo-scripted']);
      const res = await fetch(`${cmd.baseUrl}/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo-scripted', messages: [{ role: 'user', content: 'Hello, who are you?' }] }),
      });
      // a request that is not a glm-web step is refused at once, with what the demo model is
      expect(res.status).toBe(400);
      const body = await res.json() as { error: { message: string } };
      expect(body.error.message).toBe(NOT_PLAYED);
      // a glm-web step with a task that is not the shop's is told so, in the dialect's grammar
      const web = DIALECTS['glm-web'].buildRequest({ task: 'Book a flight to Paris', site: 'http://127.0.0.1/', now: new Date(0), history: [], memory: '', marks: [], shot: { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } }, apps: [] });
      const other = await fetch(`${cmd.baseUrl}/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'demo-scripted', messages: toMessages(web, ['data:image/png;base64,AAAA']) }),
      });
      expect(other.status).toBe(200);
      expect(((await other.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toContain(NOT_A_MODEL);
      // the shop beside it, on the next port
      expect((await fetch(`http://127.0.0.1:${port + 1}/`)).status).toBe(200);
    } finally {
      expect(await cmd.stop()).toBe(0);
    }
  }, 30_000);
});
