/**
 * The scripted demo model: its plans for the demo shop's tasks, its reply to any other task, the
 * flags of npm run demo (--keep) and npm run demo-model (--port), the settings --keep saves, and
 * `npm run demo-model` itself answering an OpenAI-compatible request (then stopped).
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DEMO_PORT, DEMO_PROFILE, demoArgs, demoCatalog, demoGoals, demoModelPort, demoSettings, NOT_A_MODEL } from '../../scripts/demo-model';
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
  it('has no plan for other tasks', () => {
    expect(demoGoals('Book a flight to Paris')).toBeNull();
  });
});

describe('demo flags and settings', () => {
  it('--keep and --port', () => {
    expect(demoArgs([])).toEqual({ keep: false });
    expect(demoArgs(['--keep'])).toEqual({ keep: true });
    expect(() => demoArgs(['--kep'])).toThrow();
    expect(demoModelPort([])).toBe(DEFAULT_DEMO_PORT);
    expect(demoModelPort(['--port', '9000'])).toBe(9000);
    expect(() => demoModelPort(['--port', 'x'])).toThrow(/--port/);
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
  it('prints the base URL and answers an OpenAI-compatible request, saying it is not a model for a task it has no plan for', async () => {
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
      expect(res.status).toBe(200);
      const body = await res.json() as { choices: Array<{ message: { content: string } }> };
      expect(body.choices[0].message.content).toContain(NOT_A_MODEL);
      // the shop beside it, on the next port
      expect((await fetch(`http://127.0.0.1:${port + 1}/`)).status).toBe(200);
    } finally {
      expect(await cmd.stop()).toBe(0);
    }
  }, 30_000);
});
