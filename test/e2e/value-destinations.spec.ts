/**
 * A value the run put into a page goes only where the person said (issue 40; docs/guards.md, "The
 * request hold"): a card number typed on the fixture site (127.0.0.1) and sent by the page to
 * another site (localhost, another port: test/fixtures/away-site.ts) by every channel a page has,
 * each with the number changed so that no match could find it. Through the runner, in process,
 * in auto mode.
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScripted, type Outcome } from './scripted-runs';
import { serveFixtures } from './support';
import { startAwaySite, type AwaySite } from '../fixtures/away-site';
import type { StaticServer } from '../../scripts/static-server';

const agent = useAgent();
const out = mkdtempSync(path.join(tmpdir(), 'webagent-values-'));
const CARD = '4111 1111 1111 1111';
/** every channel value-away.html sends by: held and asked, then sent on yes */
const HELD = ['audio', 'beacon', 'cssbg', 'fetch', 'font', 'frame-fetch', 'img', 'prefetch', 'script', 'sw', 'worker'];

let site: StaticServer;
let away: AwaySite;
test.beforeAll(async () => { [site, away] = await Promise.all([serveFixtures(), startAwaySite()]); });
test.afterAll(async () => { await Promise.all([site.close(), away.close()]); });

test.describe('a card number sent to another site by every channel, encoded past any match', () => {
  let o: Outcome;
  const sent = (round: number) => away.hits.filter((h) => h.includes(`&n=${round}&`) || h.endsWith(`&n=${round}`));
  test.beforeAll(async () => {
    site.events.length = 0;
    away.hits.length = 0;
    // typed with Enter (a payment the person approves), the page sends it away at once: no;
    // "Continue" sends it by every channel: no, no, then yes
    o = await runScripted(agent, site, `value-away.html?away=${encodeURIComponent(away.url)}`, [
      { type: /^Card number$/, text: CARD },
      { click: /^Continue$/ },
      { click: /^Continue$/ },
      { click: /^Continue$/ },
      { answer: 'done' },
    ], 'y\nn\nn\nn\ny\n', path.join(out, 'away.json'));
  });

  test('an approved payment action does not release the number to another site: held, asked, blocked', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    const typed = o.trace.steps[0];
    expect(typed.approval?.decision).toBe('approved');
    expect(typed.afterAction).toMatchObject({ rule: 'payment', decision: 'rejected' });
    expect(typed.afterAction?.requests?.map((r) => r.away)).toEqual([new URL(away.url).host]);
    expect(o.r.stderr).toContain(`a card number typed in this run is in this page, and the page is sending a request to ${new URL(away.url).host}, another site`);
    expect(away.hits.filter((h) => h.startsWith('/enter'))).toEqual([]);
  });

  test('by every channel (frames in their own process, workers, the service worker included) it is held whatever it carries, and reaches nothing until the yes', () => {
    const [, first, second, third] = o.trace.steps;
    for (const s of [first, second]) {
      expect(s.afterAction, s.actionText).toMatchObject({ rule: 'payment', decision: 'rejected' });
      expect(s.result.ok).toBe(false);
    }
    expect(third.afterAction).toMatchObject({ rule: 'payment', decision: 'approved' });
    // the first round was asked about and blocked, at its own question or at the next
    expect(sent(1)).toEqual([]);
    // sent on yes: every channel but the connection, which cannot wait
    const onYes = [...new Set(sent(3).map((h) => h.split(/[/?]/)[1]))].sort();
    expect(onYes).toEqual(HELD);
    // each held request's record names where it went and never the number
    const records = JSON.stringify(o.trace.steps.map((s) => s.afterAction ?? null));
    expect(records).not.toMatch(/4111|1111111111111114|5222222222222222|34313131/);
  });

  test('a WebSocket to the other site is refused every time, yes or no, and the model is told', () => {
    expect(away.hits.filter((h) => h.startsWith('ws '))).toEqual([]);
    expect(o.trace.steps[1].observation).toContain(`The page tried to open a connection to "ws://${new URL(away.url).host}"`);
    expect(site.events.filter((e) => e.type === 'blocked' && e.value === 'ws').length).toBeGreaterThanOrEqual(3);
  });
});
