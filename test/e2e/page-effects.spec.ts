/**
 * What a page does besides what the action pressed, through the runner in auto mode (issue 24,
 * items 3 and 4): its dialogs (an alert, an ordinary confirm, a confirm that deletes behind a
 * harmless "Continue", a prompt, a beforeunload), the request hold (a card number typed by the
 * model and sent by a page script with fetch in the query, by XHR as JSON, and by a form post
 * URL-encoded, none of them by a button the guards could read), and a page that reloads itself
 * every 300 ms. Every effect is reported by the page to the test server (guards/report.js).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScripted, type Outcome, type Step } from './scripted-runs';
import { serveFixtures } from './support';
import { startFakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import type { Trace } from '../../src/core/trace';
import type { StaticServer } from '../../scripts/static-server';

/** the runner, in this process, in a warm browser (test/e2e/fixtures.ts) */
const agent = useAgent();

const PROMPT = 'Approve? [y = run it / n FEEDBACK = reject / e ACTION = edit / q = stop]';
const out = mkdtempSync(path.join(tmpdir(), 'webagent-effects-'));
const values = (o: Outcome, type: string) => o.events.filter((e) => e.type === type).map((e) => e.value);

let site: StaticServer;
test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });

test.describe('dialogs: answered and told, or asked when a guard cares', () => {
  let o: Outcome;
  test.beforeAll(async () => {
    site.events.length = 0;
    o = await runScripted(agent, site, 'dialogs.html', [
      { click: /^Show notice$/ },
      { click: /^Use address$/ },
      { click: /^Continue$/ },
      { click: /^Continue$/ },
      { click: /^Rename list$/ },
      { click: /^Next page$/ },
      { answer: 'checked' },
    ], 'n\ny\n', path.join(out, 'dialogs.json'));
  });

  test('the run ends normally, asking twice (the deleting confirm)', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stdout).toContain('ANSWER: checked');
    expect(o.r.stderr.split(PROMPT)).toHaveLength(3);
    expect(o.r.stderr).toContain('Guard: the page asks "Delete your account permanently?": answering OK may delete something');
    expect(o.trace.run.stopReason).toBeNull();
  });

  test('an alert and an ordinary confirm are answered OK, and the model is told what they said', () => {
    const [notice, filters] = o.trace.steps;
    expect(notice.result.ok).toBe(true);
    expect(notice.observation).toContain('The page showed a message in a dialog: "Your settings were saved."');
    expect(values(o, 'after-alert')).toEqual(['yes']);
    expect(filters.result.ok).toBe(true);
    expect(filters.observation).toContain('The page asked in a dialog: "Use this address for delivery?"; the agent answered OK.');
    expect(values(o, 'address')).toEqual(['used']);
  });

  test('a confirm that deletes, behind a harmless button: Cancel when the person says no, OK when yes', () => {
    const [, , no, yes] = o.trace.steps;
    expect(no.afterAction).toMatchObject({ rule: 'delete', decision: 'rejected', dialog: { type: 'confirm', message: 'Delete your account permanently?' } });
    expect(no.result.ok).toBe(false);
    expect(no.observation).toContain('the user answered Cancel');
    expect(yes.afterAction).toMatchObject({ rule: 'delete', decision: 'approved' });
    expect(yes.result.ok).toBe(true);
    expect(yes.observation).toContain('the user answered OK');
    expect(values(o, 'account')).toEqual(['kept', 'deleted']);
  });

  test('a prompt is cancelled and the action is not called a success', () => {
    const rename = o.trace.steps[4];
    expect(rename.result.ok).toBe(false);
    expect(rename.observation).toContain('The page asked for text in a dialog ("New name for the list?")');
    expect(rename.observation).not.toMatch(/^Success/);
    expect(values(o, 'rename')).toEqual(['null']);
  });

  test('a page that asks before it is left is left, and the model is told', () => {
    const leave = o.trace.steps[5];
    expect(leave.result.ok).toBe(true);
    expect(leave.observation).toContain('The page warned before leaving it');
    expect(values(o, 'view')).toContain('dialogs-next.html');
  });
});

test.describe('the request hold: a card number the model typed, sent by page scripts', () => {
  let o: Outcome;
  test.beforeAll(async () => {
    site.events.length = 0;
    o = await runScripted(agent, site, 'card-script.html', [
      { type: /^Card number$/, text: '4111 1111 1111 1111' },
      { click: /^Continue with fetch$/ },
      { click: /^Continue with XHR$/ },
      { click: /^Continue with form$/ },
      { click: /^Continue with fetch$/ },
      { answer: 'checked' },
    ], 'y\nn\nn\nn\ny\n', path.join(out, 'card.json'));
  });

  test('typing the card number asks (Enter in a card field); each script\'s request is held and asked about', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.r.stderr.split(PROMPT)).toHaveLength(6);
    const [typed, fetchNo, xhrNo, formNo, fetchYes] = o.trace.steps;
    expect(typed.approval?.decision).toBe('approved');
    for (const s of [fetchNo, xhrNo, formNo]) {
      expect(s.approval?.decision, s.actionText).toBe('auto');
      expect(s.afterAction, s.actionText).toMatchObject({ rule: 'payment', decision: 'rejected' });
      expect(s.result.ok).toBe(false);
      expect(s.observation).toContain('the user did not allow it, so the request was blocked');
    }
    expect(fetchYes.afterAction).toMatchObject({ rule: 'payment', decision: 'approved' });
    expect(o.r.stderr).toMatch(/Guard: the page is sending a card number typed in this run to 127\.0\.0\.1/);
  });

  test('no card request reached the server until the person said yes, and the card number is nowhere in the trace', () => {
    expect(values(o, 'card')).toEqual(['fetch']);
    expect(o.events.find((e) => e.type === 'card')?.pan).toBe('4111111111111111');
    expect(values(o, 'blocked')).toEqual(expect.arrayContaining(['fetch', 'xhr']));
    // the held requests are recorded without the number (query cut, long digit runs hidden)
    const held = JSON.stringify(o.trace.steps.map((s) => s.afterAction ?? null));
    expect(held).not.toContain('4111111111111111');
    expect(held).not.toContain('4111 1111');
  });
});

// The first line reads as a person reads (issue 41 item 2, docs/guards.md "every name it has"):
// names in drawn order (bidi override, flex row-reverse, grid placement), CSS-generated text at
// any depth, a label's hidden control, and a phrase anywhere in the label ask before the press.
test.describe('names a person reads differently from the page text', () => {
  const PAY = 'which may pay or place an order';
  const SHAPES: { step: Step; effect: string; name: string; rule: string }[] = [
    { step: { click: /^(Place order)?$/, tag: 'button' }, effect: 'order', name: 'Place order', rule: PAY },
    { step: { click: /^redro ecalP$/ }, effect: 'bidi', name: 'Place order', rule: PAY },
    { step: { click: /^order ?Place$/ }, effect: 'reverse', name: 'Place order', rule: PAY },
    { step: { click: /^trash ?Empty$/ }, effect: 'grid', name: 'Empty trash', rule: 'which may delete something' },
    { step: { click: /#42$/ }, effect: 'deep', name: 'Place order #42', rule: PAY },
    { step: { click: /^Show order details$/ }, effect: 'label', name: 'Place order', rule: PAY },
    { step: { click: /^Place my order$/ }, effect: 'filler', name: 'Place my order', rule: PAY },
    { step: { click: /^Yes, delete my account$/ }, effect: 'later', name: 'Yes, delete my account', rule: 'which may delete something' },
    // words only in a picture, read by OCR on this machine
    { step: { click: /^$/, tag: null }, effect: 'picture', name: 'Buy now', rule: PAY },
    { step: { click: /^Submit$/, tag: 'input' }, effect: 'image-input', name: 'Place order', rule: PAY },
  ];
  // look-alikes: a negation, a plain button, an image button whose picture says "See reviews"
  const LOOK_ALIKES: Step[] = [{ click: /^Do not delete$/ }, { click: /^Show basket$/ }, { click: /^Submit$/, tag: 'input', nth: 1 }];
  const steps = (): Step[] => [...SHAPES.map((s) => s.step), ...LOOK_ALIKES, { answer: 'checked' }];

  test('each asks before the press, naming what a person reads; refused, nothing happens; the look-alikes beside them run', async () => {
    site.events.length = 0;
    const o = await runScripted(agent, site, 'names.html', steps(), 'n\n'.repeat(SHAPES.length), path.join(out, 'names-no.json'));
    expect(o.r.code, o.r.stderr).toBe(0);
    const questions = o.r.stderr.split(PROMPT).slice(0, -1);
    expect(questions, o.r.stderr).toHaveLength(SHAPES.length);
    SHAPES.forEach((s, i) => {
      const step = o.trace.steps[i];
      expect(step.approval?.decision, `${s.effect}: ${step.actionText}`).toBe('rejected');
      expect(questions[i], s.effect).toContain(`Guard: this clicks "${s.name}", ${s.rule}`);
    });
    expect(o.trace.steps.slice(SHAPES.length, SHAPES.length + LOOK_ALIKES.length).map((s) => s.approval?.decision)).toEqual(LOOK_ALIKES.map(() => 'auto'));
    expect(values(o, 'effect')).toEqual(['not', 'basket', 'reviews']);
  });

  test('approved, each does what it does', async () => {
    site.events.length = 0;
    const o = await runScripted(agent, site, 'names.html', steps(), 'y\n'.repeat(SHAPES.length), path.join(out, 'names-yes.json'));
    expect(o.r.code, o.r.stderr).toBe(0);
    expect(o.trace.steps.slice(0, SHAPES.length).map((s) => s.approval?.decision)).toEqual(SHAPES.map(() => 'approved'));
    expect(values(o, 'effect')).toEqual([...SHAPES.map((s) => s.effect), 'not', 'basket', 'reviews']);
  });

  test('glm-pc, pressing at points: the bidi, grid, deep ::before and picture buttons ask; "Do not delete" runs', async () => {
    site.events.length = 0;
    // centres on the 1280 × 800 page, in glm-pc's thousandths: bidi (140, 100), grid (660, 100), deep (140, 180), the "Buy now" picture (140, 420), "Do not delete" (400, 260)
    const moves = ["left_click(start_box='[109,125]')", "left_click(start_box='[516,125]')", "left_click(start_box='[109,225]')", "left_click(start_box='[109,525]')", "left_click(start_box='[313,325]')"];
    let n = 0;
    const model = await startFakeModel({
      dialect: 'glm-pc',
      policy: () => ({ content: n < moves.length ? `I will press it.\n${moves[n++]}\nMemory:\n[]` : 'Done.\nDONE()\nMemory:\n[]' }),
    });
    try {
      const traceFile = path.join(out, 'names-glm-pc.json');
      const r = await agent.run(['--task', 'Look at the basket', '--url', `${site.url}guards/names.html`, '--base-url', model.baseUrl, '--dialect', 'glm-pc', '--trace', traceFile, '--max-steps', '7'], {}, 'n\nn\nn\nn\n');
      expect(r.code, r.stderr).toBe(0);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      expect(t.steps.slice(0, 5).map((s) => s.approval?.decision), r.stderr).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'auto']);
      expect(r.stderr).toContain('Guard: this clicks "Place order", which may pay or place an order');
      expect(r.stderr).toContain('Guard: this clicks "Empty trash", which may delete something');
      expect(r.stderr).toContain('Guard: this clicks "Place order #42", which may pay or place an order');
      expect(r.stderr).toContain('Guard: this clicks "Buy now", which may pay or place an order');
      expect(site.events.filter((e) => e.type === 'effect').map((e) => e.value)).toEqual(['not']);
    } finally {
      await model.close();
    }
  });
});

test.describe('a page that reloads itself every 300 ms', () => {
  test('the run ends with a reason a person understands, or goes on, never with an unexpected error', async () => {
    site.events.length = 0;
    const o = await runScripted(agent, site, 'restless.html', [{ click: /^Stay$/ }, { answer: 'checked' }], '', path.join(out, 'restless.json'));
    expect(o.r.stderr).not.toContain('Unexpected error');
    expect(o.trace.run.stopReason ?? '').not.toMatch(/Unexpected error|Frame with ID/);
    if (o.trace.run.status === 'finished') expect(o.r.stdout).toContain('ANSWER: checked');
    else expect(o.trace.run.stopReason).toMatch(/kept reloading or navigating by itself/);
    for (const s of o.trace.steps) expect(s.observation).not.toMatch(/Frame with ID \d+ was removed/);
  });
});

test.describe('typing says what it did: fields keys cannot fill get their value, a field that ignores keys is no Success', () => {
  let o: Outcome;
  test.beforeAll(async () => {
    site.events.length = 0;
    o = await runScripted(agent, site, '../widgets/fields.html', [
      { type: /^Arrival date$/, text: '09/10/2012' },
      { type: /^Check-in time$/, text: '2:30 PM' },
      { type: /^Reminder$/, text: '2012-09-10 08:15' },
      { type: /^Travel month$/, text: 'September 2027' },
      { type: /^Holiday week$/, text: '2012-W37' },
      { type: /^Room colour$/, text: 'rgb(0, 128, 255)' },
      { type: /^Guests$/, text: '4' },
      { type: /^Guests$/, text: '9' },
      { type: /^Arrival date$/, text: 'next Tuesday' },
      { type: /^Promo code$/, text: 'SPRING' },
      { type: /^Nights$/, text: 'three' },
      { answer: 'typed' },
    ], 'y\n'.repeat(12), path.join(out, 'fields.json')); // a month field reads as a card's expiry: its Enter asks (the payment rule)
  });

  test('each segmented, colour and range field holds the value, and the page saw input and change', () => {
    expect(o.r.code, o.r.stderr).toBe(0);
    const SET = ['arrival', 'checkin', 'reminder', 'expiry', 'week', 'colour', 'guests'];
    expect(values(o, 'field').filter((v) => SET.includes(v.split('=')[0]))).toEqual([
      'arrival=2012-09-10', 'checkin=14:30', 'reminder=2012-09-10T08:15', 'expiry=2027-09', 'week=2012-W37', 'colour=#0080ff', 'guests=4',
      // 9 is over the slider's maximum: the field keeps 6, and the step says so
      'guests=6',
    ]);
    const results = o.trace.steps.map((s) => (s.result.ok ? `ok ${s.observation}` : `error ${s.result.error}`));
    expect(results[0]).toMatch(/^ok Success\. \[\d+\] now reads 2012-09-10\./);
    expect(results[6]).toMatch(/now reads 4\./);
  });

  test('what the field did not take is an error that says why, never Success', () => {
    const results = o.trace.steps.map((s) => (s.result.ok ? 'ok' : s.result.error));
    expect(results[7]).toMatch(/did not take 9: it reads "6"/);
    expect(results[8]).toMatch(/"next Tuesday" is not a date this field can take; write it like 2012-09-10/);
    expect(results[9]).toMatch(/its value did not change: the field did not take the keys/);
    expect(results[10]).toMatch(/its value did not change/);
    expect(o.trace.run.status).toBe('finished');
  });
});

test('the loop guard counts a value that keeps changing as progress: a spinner clicked down six times is not stopped', async () => {
  site.events.length = 0;
  const down = Array.from({ length: 6 }, () => ({ click: /^Decrease$/ }));
  const o = await runScripted(agent, site, '../widgets/spinner.html', [...down, { answer: '-6' }], '', path.join(out, 'spinner.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  expect(o.trace.run.status).toBe('finished');
  expect(values(o, 'qty')).toEqual(['-1', '-2', '-3', '-4', '-5', '-6']);
  // the element list itself never changed: only the field's value did
  expect(new Set(o.trace.steps.slice(0, 6).map((s) => s.elements.map((m) => m.text).join('|'))).size).toBe(1);
});

test('a datepicker\'s arrows that only a delegated handler makes clickable are labelled and used: two months back, then a day', async () => {
  site.events.length = 0;
  const o = await runScripted(agent, site, '../widgets/datepicker.html', [
    { click: /^Prev$/ }, { click: /^Prev$/ }, { click: /^15$/ }, { answer: 'picked' },
  ], '', path.join(out, 'datepicker.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  expect(o.trace.run.status).toBe('finished');
  expect(values(o, 'date')).toEqual(['03/15/2026']);
  expect(o.trace.steps.slice(0, 3).map((s) => s.observation)).toEqual(['Success', 'Success', 'Success']);
});

test('toolbar buttons that inherit the toolbar\'s cursor are one label each; a click that changed nothing is said to have changed nothing', async () => {
  site.events.length = 0;
  const o = await runScripted(agent, site, '../widgets/mail.html', [{ click: /^Print$/ }, { click: /^Forward$/ }, { answer: 'forwarding' }], '', path.join(out, 'mail.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  expect(o.trace.steps[0].elements.map((m) => m.text)).toEqual(expect.arrayContaining(['Reply', 'Forward', 'Print']));
  expect(values(o, 'mail')).toEqual(['Print', 'Forward']);
  expect(o.trace.steps[0].observation).toMatch(/^Done, but nothing on the page changed/);
  expect(o.trace.steps[1].observation).toBe('Success');
  expect(o.trace.run.status).toBe('finished');
});

/**
 * What an action set going is waited for, and no more (issue 28): pages served here, each a
 * reaction that comes late, and a scripted model whose step i writes actions[i] (a function of
 * the element list, or a fixed action). What the model was shown after each action is checked,
 * never how long anything took.
 */
test.describe('after an action, the page is observed once what the action set going has ended', () => {
  const PAGES: Record<string, string> = {
    // a click that fetches (the server answers after 250 ms) and renders the answer
    '/fetch.html': `<!doctype html><title>Search</title><body style="font: 16px sans-serif">
      <button id="go">Load results</button><div id="out"></div>
      <script>
        go.onclick = async () => {
          out.textContent = 'Loading…';
          const r = await fetch('/data?delay=250');
          const n = await r.text();
          out.innerHTML = '<p>' + n + ' results</p><button>Open result ' + n + '</button>';
        };
      </script></body>`,
    // a scroll that brings a sentinel into view, which fetches (250 ms) and renders more
    '/lazy.html': `<!doctype html><title>Feed</title><body style="font: 16px sans-serif; margin: 0">
      <button>Top of the feed</button><div style="height: 880px"></div><div id="sentinel">…</div><div id="more"></div><div style="height: 1000px"></div>
      <script>
        new IntersectionObserver(async (entries, io) => {
          if (!entries.some((e) => e.isIntersecting)) return;
          io.disconnect();
          const n = await (await fetch('/data?delay=250')).text();
          more.innerHTML = '<button>Lazy item ' + n + '</button>';
        }).observe(sentinel);
      </script></body>`,
    // a click that starts a 2.5 s countdown with no request and no change meanwhile: a Wait sees its end
    '/later.html': `<!doctype html><title>Later</title><body style="font: 16px sans-serif">
      <button id="start">Start the countdown</button><div id="out"></div>
      <script>start.onclick = () => setTimeout(() => { out.innerHTML = '<button>Countdown done</button>'; }, 2500);</script></body>`,
  };
  let server: Server;
  let base = '';
  test.beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/data') {
        setTimeout(() => { res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }); res.end('42'); }, Number(url.searchParams.get('delay') ?? 0));
        return;
      }
      const page = PAGES[url.pathname];
      res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page ?? 'not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  type Act = string | ((els: PromptParts['elements']) => string);
  const click = (text: RegExp): Act => (els) => {
    const el = els.find((e) => text.test(e.text));
    return el ? `Click [${el.label}]` : 'ANSWER; <content>not found</content>';
  };

  async function run(page: string, actions: Act[], name: string): Promise<Trace> {
    const model = await startFakeModel({
      policy: (req) => {
        const p = req.prompt as PromptParts;
        const a = actions[Math.min(p.history.length, actions.length - 1)];
        return { content: `Thought: Next.\nAction: ${typeof a === 'string' ? a : a(p.elements)}\nMemory_Updated: {}` };
      },
    });
    try {
      const traceFile = path.join(out, `${name}.json`);
      const r = await agent.run(['--task', 'Look at the page', '--url', `${base}${page}`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(actions.length + 1)]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
    } finally {
      await model.close();
    }
  }
  const texts = (s: Trace['steps'][number]) => s.elements.map((e) => e.text);

  test('a click whose result is fetched and rendered 250 ms later is observed with the result', async () => {
    const t = await run('/fetch.html', [click(/^Load results$/), 'ANSWER; <content>done</content>'], 'act-fetch');
    expect(t.steps[0].result.ok).toBe(true);
    expect(texts(t.steps[1])).toContain('Open result 42');
  });

  test('a scroll whose lazily loaded part is fetched and rendered 250 ms later is observed with it', async () => {
    const t = await run('/lazy.html', ['Scroll [WINDOW]; [down]', 'ANSWER; <content>done</content>'], 'act-lazy');
    expect(t.steps[0].result.ok).toBe(true);
    expect(texts(t.steps[1])).toContain('Lazy item 42');
  });

  test('a Wait waits the time it stands for (5 s), then the page is observed: a change 2.5 s after the click before it is seen', async () => {
    const t = await run('/later.html', [click(/^Start the countdown$/), 'Wait', 'ANSWER; <content>done</content>'], 'act-wait');
    expect(t.steps[1].actionText).toBe('Wait');
    expect(texts(t.steps[2])).toContain('Countdown done');
  });
});
