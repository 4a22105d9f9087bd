/**
 * The run database (src/background/run-store.ts) and a run's secrets: its vault (the person's
 * secrets, the passwords it typed) goes to memory-only session storage, never to IndexedDB; when a
 * password joins it, steps already written are written again, masked. fake-indexeddb and a
 * stand-in for chrome.storage.session.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRun, reduce, type Observation, type RunState } from '../../src/core/run';

const session = new Map<string, unknown>();
beforeAll(() => {
  (globalThis as Record<string, unknown>).chrome = {
    storage: {
      session: {
        get: async (keys: string[]) => Object.fromEntries(keys.filter((k) => session.has(k)).map((k) => [k, session.get(k)])),
        set: async (items: Record<string, unknown>) => { for (const [k, v] of Object.entries(items)) session.set(k, structuredClone(v)); },
        remove: async (keys: string | string[]) => { for (const k of [keys].flat()) session.delete(k); },
      },
    },
  };
});

const PW = 'correct-horse-9';
const CARD = '5500 0000 0000 0004';

const obs: Observation = {
  url: 'https://shop.example/', title: 't', viewport: { width: 10, height: 10, devicePixelRatio: 1 },
  marks: [
    { label: 0, tag: 'input', text: 'Password', rect: { x: 0, y: 0, width: 5, height: 5 }, inputType: 'password' },
    { label: 1, tag: 'div', text: `card ${CARD}`, rect: { x: 0, y: 6, width: 5, height: 5 } },
  ],
  screenshot: { dataUrl: 'data:image/png;base64,AAAA', bytes: 3, width: 10, height: 10 },
};

function step(s: RunState, raw: string): RunState {
  s = reduce(s, { type: 'observed', at: 1100, obs, ms: 5 });
  s = reduce(s, { type: 'replied', at: 1200, raw, reasoning: null, usage: null, ms: 5 });
  if (s.phase !== 'act') return s;
  s = reduce(s, { type: 'checked', at: 1201, hit: null });
  return reduce(s, { type: 'acted', at: 1300, result: { ok: true }, ms: 5 });
}

async function dump(id: string): Promise<string> {
  const { db } = await import('../../src/background/run-store');
  const d = await db();
  return JSON.stringify([await d.get('runs', id), await d.getAll('steps')]);
}

describe('a run\'s secrets in storage', () => {
  it('the vault is in session storage only; steps written before a password was typed are written again, masked', async () => {
    const store = await import('../../src/background/run-store');
    let s = createRun({
      id: 'sec-run', task: `log in with ${PW}`, startUrl: 'https://shop.example/', tabId: 1, dialect: 'glm-web', model: 'm',
      baseUrl: 'http://h/v1', maxSteps: 9, at: 1000, secrets: [{ name: 'card', value: CARD }],
    });
    s = step(s, `Thought: I will use ${PW} and {{secret:card}}\nAction: Wait\nMemory_Updated: {"pw": "${PW}"}`);
    await store.saveRun(s);
    // Before it is typed, the password is just text of the run (the person wrote it in the task).
    expect(await dump('sec-run')).toContain(PW);
    expect(await dump('sec-run')).not.toContain(CARD);
    expect(session.get('vault:sec-run')).toEqual({ typed: [], kept: [{ name: 'card', value: CARD }] });

    s = reduce(s, { type: 'observed', at: 2100, obs, ms: 5 });
    s = reduce(s, { type: 'replied', at: 2200, raw: `Thought: type it\nAction: Type [0]; [${PW}]\nMemory_Updated: {}`, reasoning: null, usage: null, ms: 5 });
    await store.saveRun(s);
    // The pending password waits in the session; the earlier step, the task and the memory are masked on disk.
    expect(session.get('secret:sec-run')).toBe(PW);
    expect(session.get('vault:sec-run')).toMatchObject({ typed: [PW] });
    const written = await dump('sec-run');
    expect(written).toContain('I will use {{password:1}}');
    expect(written).not.toContain(PW);
    expect(written).not.toContain(CARD);

    // Read back (a restarted worker): the vault and the pending text come from the session.
    const back = await store.loadRun('sec-run');
    expect(back?.vault).toEqual({ typed: [PW], kept: [{ name: 'card', value: CARD }] });
    expect(back?.pending?.reply?.action).toMatchObject({ text: PW });

    await store.deleteRun('sec-run');
    expect(session.has('vault:sec-run')).toBe(false);
    expect(session.has('secret:sec-run')).toBe(false);
  });
});
