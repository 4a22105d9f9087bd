/**
 * The run hides secrets in what the page reports at one boundary (core/run/secrets.ts hideEvent,
 * called by reduce.ts before any handler): every text of every event that comes from the page or
 * the tab, in every encoding, and nothing an action stored for later (a variable's value). The
 * handlers (on-*.ts) do not hide event text again themselves.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hideEvent } from '../../src/core/run/secrets';
import type { RunEvent } from '../../src/core/run';
import type { Vault } from '../../src/core/secrets';
import { observation } from '../fixtures/run';

const PW = 'hunter22/pw!';
const vault: Vault = { typed: [PW], kept: [{ name: 'email', value: 'ada@example.org' }] };
const at = 1;
const enc = encodeURIComponent(PW);
const page = (s: string) => `${s} ${PW} ${enc} ada@example.org`;

/** One event of each type that carries page text, each text holding the secrets. */
const EVENTS: RunEvent[] = [
  { type: 'observed', at, ms: 1, obs: observation({ url: `https://a.example/?q=${enc}`, title: page('title'), marks: [{ label: 0, tag: 'a', text: page('link'), rect: { x: 0, y: 0, width: 1, height: 1 } }] }) },
  { type: 'input', at, result: { ok: false, error: page('could not type') } },
  { type: 'input', at, result: { ok: true, note: page('typed') } },
  { type: 'acted', at, ms: 1, result: { ok: true, note: page('done') }, landed: { url: `https://b.example/?p=${enc}`, downloads: [{ id: 1, url: `https://b.example/${enc}`, filename: page('file') }], chooser: { files: ['a.txt'], url: `https://c.example/?e=ada@example.org` } } },
  { type: 'resolved', at, outcome: page('kept') },
  { type: 'tab', at, tabId: 2, change: 'opened', url: `https://d.example/?p=${enc}` },
  { type: 'pause', at, url: `https://e.example/${enc}` },
  { type: 'takeover', at, url: `https://e.example/${enc}` },
  { type: 'resume', at, url: `https://e.example/${enc}` },
  { type: 'approve', at, target: { tag: 'a', text: page('target'), rect: { x: 0, y: 0, width: 1, height: 1 }, href: `https://f.example/?u=ada@example.org` } },
];

const leaks = (x: unknown) => {
  const text = JSON.stringify(x);
  return [PW, enc, 'ada@example.org'].filter((v) => text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1)));
};

describe('secrets hidden where the page reports enter the run', () => {
  for (const ev of EVENTS) {
    it(`${ev.type}: no secret left in any of its texts`, () => {
      expect(leaks(ev), 'the event holds the secrets before').not.toEqual([]);
      const hidden = hideEvent({ vault }, ev);
      const { screenshot: _s, ...rest } = (hidden as { obs?: { screenshot: unknown } }).obs ?? {};
      expect(leaks(hidden.type === 'observed' ? rest : hidden)).toEqual([]);
    });
  }

  it('what an action stored is kept whole (the run types it later); with no vault the event is the same object', () => {
    const ev: RunEvent = { type: 'acted', at, ms: 1, result: { ok: true, note: page('stored'), set: { name: 'code', value: PW } } };
    const hidden = hideEvent({ vault }, ev) as Extract<RunEvent, { type: 'acted' }>;
    expect(hidden.result.ok && hidden.result.set?.value).toBe(PW);
    expect(hidden.result.ok && hidden.result.note).not.toContain(PW);
    expect(hideEvent({}, ev)).toBe(ev);
  });

  it('no handler hides event text again: the boundary is the one place', () => {
    const dir = path.resolve(__dirname, '../../src/core/run');
    const handlers = readdirSync(dir).filter((f) => /^on-.*\.ts$/.test(f));
    expect(handlers.length).toBeGreaterThan(3);
    for (const f of handlers) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toMatch(/hide(?:Run|Marks|Target)\([^)]*\bev\./);
  });
});
