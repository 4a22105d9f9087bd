/**
 * The guards' second line (issue 41, docs/guards.md "Two lines"): whatever element, event or key
 * set it off, a request that would order, pay, delete or send during a run's action is held and
 * asked. guards/request-effects.html ties each effect to something the element-words gate does
 * not see as one (a select's change, a link's href, Enter in a one-field form, a hover, a key the
 * page listens for, a mouseup, a button that changes under the pointer, a chat composer); each
 * sends to its own /__api/ path, which the fixture server records. (Names drawn in another order
 * than the page text, and a label's hidden control, are the first line's now: page-effects.spec.ts;
 * so is a link whose address says what it does, below.) Through the runner, in process, in auto mode (glm-web).
 */
import { test, expect, useAgent } from './fixtures';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { runScripted, type Step } from './scripted-runs';
import { startFakeModel } from '../fixtures/model/server';
import { bboxIn } from '../fixtures/dialects/midscene/player';
import { smartResize } from '../../src/core/action/coords';
import { RESIZED_PIXELS } from '../../src/core/dialects/ui-tars/coords';
import type { DialectId } from '../../src/core/dialects/registry';
import type { Trace } from '../../src/core/trace';
import { serveFixtures } from './support';
import type { StaticServer } from '../../scripts/static-server';

const agent = useAgent();
const out = mkdtempSync(path.join(tmpdir(), 'webagent-effects-'));
let site: StaticServer;
test.beforeAll(async () => { site = await serveFixtures(); });
test.afterAll(async () => { await site.close(); });

interface Shape { name: string; steps: Step[]; path: string; rule: 'payment' | 'delete' | 'send' }

const SHAPES: Shape[] = [
  { name: 'a select whose change places the order', steps: [{ click: /^Delivery: Standard$/ }, { click: /^Express$/ }], path: '/__api/select/place-order', rule: 'payment' },
  { name: 'Enter in the only field of a form without a button', steps: [{ type: /^Gift note$/, text: 'Happy birthday' }], path: '/__api/one-field/place-order', rule: 'payment' },
  { name: 'a hover (mouseenter) that orders', steps: [{ click: /^Show offers$/ }], path: '/__api/hover/orders', rule: 'payment' },
  { name: 'a drop zone whose mouseup deletes', steps: [{ click: /^Drop files here$/ }], path: '/__api/drop/account', rule: 'delete' },
];

const RULE_WORDS = { payment: 'would place an order or pay', delete: 'would delete something', send: 'would send a message or post something' };
const reached = (p: string) => site.events.filter((e) => e.type === 'api' && e.value === p);

for (const s of SHAPES) {
  test(`${s.name}: held and asked; no blocks it and the model is told; yes lets it through`, async () => {
    site.events.length = 0;
    const no = await runScripted(agent, site, 'request-effects.html', [...s.steps, { answer: 'done' }], 'n\n', path.join(out, `${s.path.replace(/\W+/g, '-')}-no.json`));
    expect(no.r.code, no.r.stderr).toBe(0);
    const step = no.trace.steps[s.steps.length - 1];
    expect(step.afterAction, no.r.stderr).toMatchObject({ rule: s.rule, decision: 'rejected', requests: [expect.objectContaining({ effect: expect.any(String) })] });
    expect(step.afterAction?.reason).toContain(RULE_WORDS[s.rule]);
    expect(step.afterAction?.reason).toContain(s.path.split('?')[0]);
    expect(step.observation).toContain('the user did not allow it, so the request was blocked and did not reach the site');
    expect(reached(s.path)).toEqual([]);

    const yes = await runScripted(agent, site, 'request-effects.html', [...s.steps, { answer: 'done' }], 'y\n', path.join(out, `${s.path.replace(/\W+/g, '-')}-yes.json`));
    expect(yes.r.code, yes.r.stderr).toBe(0);
    expect(yes.trace.steps[s.steps.length - 1].afterAction).toMatchObject({ rule: s.rule, decision: 'approved' });
    await expect.poll(() => reached(s.path).length).toBe(1);
  });
}

// A link is judged before the press by where it goes (guards/link-effect.ts): its address is the GET
// request following it, judged by the second line's rule.
test('a link whose href places the order: asked before the press (the first line); no follows nothing, yes follows it once', async () => {
  site.events.length = 0;
  const steps: Step[] = [{ click: /^View details$/ }, { answer: 'done' }];
  const no = await runScripted(agent, site, 'request-effects.html', steps, 'n\n', path.join(out, 'link-no.json'));
  expect(no.r.code, no.r.stderr).toBe(0);
  expect(no.trace.steps[0].approval).toEqual({ decision: 'rejected', feedback: null });
  expect(no.r.stderr).toMatch(/Guard: this opens 127\.0\.0\.1:\d+\/__api\/order\/place, an address that would place an order or pay/);
  expect(reached('/__api/order/place')).toEqual([]);
  const yes = await runScripted(agent, site, 'request-effects.html', steps, 'y\n', path.join(out, 'link-yes.json'));
  expect(yes.r.code, yes.r.stderr).toBe(0);
  expect(yes.trace.steps[0].approval).toEqual({ decision: 'approved', feedback: null });
  expect(yes.trace.steps[0].afterAction).toBeUndefined();
  await expect.poll(() => reached('/__api/order/place').length).toBe(1);
});

// The first line again, at the press (run/act.ts pressCheck): the element under the pointer is
// judged just before each press, so a page that swaps it as the pointer arrives, or between a
// double click's two presses, gets nothing pressed that was not approved; the model is told.
test('"Cancel" that becomes "Place order" as the pointer arrives: not pressed, the model is told, nothing is sent', async () => {
  site.events.length = 0;
  const o = await runScripted(agent, site, 'request-effects.html', [{ click: /^Cancel$/ }, { answer: 'done' }], '', path.join(out, 'swap.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  const step = o.trace.steps[0];
  expect(step.approval).toEqual({ decision: 'auto', feedback: null });
  expect(step.result).toEqual({ ok: false, error: expect.stringContaining('When the pointer reached "Cancel", the element there was "Place order", which would place an order or pay') });
  expect(step.result.ok ? '' : step.result.error).toContain('nothing was pressed');
  expect(step.afterAction).toBeUndefined();
  expect(o.r.stderr).not.toContain('Approve?');
  expect(reached('/__api/swap/place-order')).toEqual([]);
});

test('a chat composer outside any form (contenteditable, "Aa"), where Enter sends: asked before typing (the first line); no types nothing, yes sends once', async () => {
  site.events.length = 0;
  const steps: Step[] = [{ type: /^Aa$/, text: 'Hello there' }, { answer: 'done' }];
  const no = await runScripted(agent, site, 'request-effects.html', steps, 'n\n', path.join(out, 'composer-no.json'));
  expect(no.r.code, no.r.stderr).toBe(0);
  expect(no.trace.steps[0].approval).toEqual({ decision: 'rejected', feedback: null });
  expect(no.r.stderr).toContain('this types into "Aa" and presses Enter, which may send it');
  expect(reached('/__api/composer/messages')).toEqual([]);
  const yes = await runScripted(agent, site, 'request-effects.html', steps, 'y\n', path.join(out, 'composer-yes.json'));
  expect(yes.r.code, yes.r.stderr).toBe(0);
  expect(yes.trace.steps[0].approval).toEqual({ decision: 'approved', feedback: null });
  // approved for this action: the message it sends is not asked about a second time
  expect(yes.trace.steps[0].afterAction).toBeUndefined();
  await expect.poll(() => reached('/__api/composer/messages').length).toBe(1);
});

test('the same page with nothing set off: typing a search and reading the cart asks nothing', async () => {
  site.events.length = 0;
  const o = await runScripted(agent, site, 'request-effects.html', [{ type: /^Search products$/, text: 'kettle' }, { answer: 'done' }], '', path.join(out, 'quiet.json'));
  expect(o.r.code, o.r.stderr).toBe(0);
  expect(o.trace.steps[0].afterAction).toBeUndefined();
  expect(site.events.filter((e) => e.type === 'api')).toEqual([]);
});

// A hover, a key the page listens for, a drop zone and a select, at points, in the dialects whose
// grammar has a hover and any key (glm-pc, cogagent, midscene, ui-tars; glm-web plays the drop zone
// and the select by label above; glm-mobile and appagent have neither a hover nor a key): each
// request is held and asked after the action; the two runs answer each one no once and yes once.
const OFFERS = { x: 900, y: 600, width: 160, height: 40 }; // "Show offers", fixed (request-effects.html)
const DROP = { x: 900, y: 520, width: 160, height: 40 }; // "Drop files here", fixed
const SHIP = { x: 1100, y: 300, width: 160, height: 30 }; // the "Delivery" select, fixed
// "Express", the list's second row: 1 px below the select, a 1 px border, 2 px padding, rows of 28 px (content-scripts/labeler/select-list.ts)
const EXPRESS = { x: SHIP.x, y: SHIP.y + SHIP.height + 1 + 1 + 2 + 28 + 4, width: SHIP.width, height: 20 };
const PAGE = { width: 1280, height: 800 };
const centreOf = (b: typeof OFFERS) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
const thousandths = (v: number, of: number) => Math.round((v / of) * 1000);
const pad3 = (n: number) => String(n).padStart(3, '0');
const resized = smartResize(PAGE.width, PAGE.height, RESIZED_PIXELS.resized!);
const glmPoint = (b: typeof OFFERS) => `'[${thousandths(centreOf(b).x, PAGE.width)},${thousandths(centreOf(b).y, PAGE.height)}]'`;
const cogBox = (b: typeof OFFERS) => `[[${[thousandths(b.x, PAGE.width), thousandths(b.y, PAGE.height), thousandths(b.x + b.width, PAGE.width), thousandths(b.y + b.height, PAGE.height)].map(pad3).join(',')}]]`;
const tarsPoint = (b: typeof OFFERS) => `'(${Math.round((centreOf(b).x * resized.width) / PAGE.width)},${Math.round((centreOf(b).y * resized.height) / PAGE.height)})'`;
const MOVES: Record<'glm-pc' | 'cogagent' | 'midscene' | 'ui-tars', { hover: string; key: string; drop: string; ship: string; express: string; done: string }> = {
  'glm-pc': {
    hover: `I will look at the offers.\nhover(start_box=${glmPoint(OFFERS)})\nMemory:\n[]`,
    key: "I will press b.\nkey(keys='b')\nMemory:\n[]",
    drop: `I will click the drop zone.\nleft_click(start_box=${glmPoint(DROP)})\nMemory:\n[]`,
    ship: `I will open the delivery list.\nleft_click(start_box=${glmPoint(SHIP)})\nMemory:\n[]`,
    express: `I will pick Express.\nleft_click(start_box=${glmPoint(EXPRESS)})\nMemory:\n[]`,
    done: 'Done.\nDONE()\nMemory:\n[]',
  },
  cogagent: {
    hover: `Action: Look at the offers.\nGrounded Operation: HOVER(box=${cogBox(OFFERS)})\n<<一般操作>>`,
    key: "Action: Press b.\nGrounded Operation: KEY_PRESS(key='b')\n<<一般操作>>",
    drop: `Action: Click the drop zone.\nGrounded Operation: CLICK(box=${cogBox(DROP)}, element_type='Button', element_info='Drop files here')\n<<一般操作>>`,
    ship: `Action: Open the delivery list.\nGrounded Operation: CLICK(box=${cogBox(SHIP)}, element_type='Select', element_info='Delivery')\n<<一般操作>>`,
    express: `Action: Pick Express.\nGrounded Operation: CLICK(box=${cogBox(EXPRESS)}, element_type='Option', element_info='Express')\n<<一般操作>>`,
    done: 'Action: Done.\nGrounded Operation: END()\n<<一般操作>>',
  },
  midscene: {
    hover: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'look at the offers', log: 'Step 0: look at the offers', more_actions_needed_by_instruction: true, action: { type: 'Hover', locate: { bbox: bboxIn('norm-xy', OFFERS, PAGE), prompt: 'Show offers' } } }),
    key: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'press b', log: 'Step 1: press b', more_actions_needed_by_instruction: true, action: { type: 'KeyboardPress', locate: null, param: { value: 'b' } } }),
    drop: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'click the drop zone', log: 'Step 2: click the drop zone', more_actions_needed_by_instruction: true, action: { type: 'Tap', locate: { bbox: bboxIn('norm-xy', DROP, PAGE), prompt: 'Drop files here' } } }),
    ship: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'open the delivery list', log: 'Step 3: open the delivery list', more_actions_needed_by_instruction: true, action: { type: 'Tap', locate: { bbox: bboxIn('norm-xy', SHIP, PAGE), prompt: 'Delivery' } } }),
    express: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'pick Express', log: 'Step 4: pick Express', more_actions_needed_by_instruction: true, action: { type: 'Tap', locate: { bbox: bboxIn('norm-xy', EXPRESS, PAGE), prompt: 'Express' } } }),
    done: JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'nothing more', log: 'done', more_actions_needed_by_instruction: false, action: null }),
  },
  'ui-tars': {
    hover: `Thought: I will look at the offers.\nAction: hover(start_box=${tarsPoint(OFFERS)})`,
    key: "Thought: I will press b.\nAction: hotkey(key='b')",
    drop: `Thought: I will click the drop zone.\nAction: click(start_box=${tarsPoint(DROP)})`,
    ship: `Thought: I will open the delivery list.\nAction: click(start_box=${tarsPoint(SHIP)})`,
    express: `Thought: I will pick Express.\nAction: click(start_box=${tarsPoint(EXPRESS)})`,
    done: "Thought: Done.\nAction: finished(content='done')",
  },
};

for (const [dialect, moves] of Object.entries(MOVES) as [keyof typeof MOVES, (typeof MOVES)[keyof typeof MOVES]][]) {
  test(`${dialect}: a hover that orders, a key the page listens for ("b" buys), a drop zone whose mouseup deletes and a select whose change places the order are held and asked after the action; no blocks, yes sends`, async () => {
    for (const [answers, hover, key] of [['n\ny\nn\ny\n', 0, 1], ['y\nn\ny\nn\n', 1, 0]] as const) {
      site.events.length = 0;
      let n = 0;
      const model = await startFakeModel({ dialect, policy: () => ({ content: [moves.hover, moves.key, moves.drop, moves.ship, moves.express][n++] ?? moves.done }) });
      try {
        const traceFile = path.join(out, `${dialect}-hover-key-${hover}.json`);
        const r = await agent.run(['--task', 'Look at the cart', '--url', `${site.url}guards/request-effects.html`, '--base-url', model.baseUrl, '--dialect', dialect, '--trace', traceFile, '--max-steps', '8'], {}, answers);
        expect(r.code, r.stderr).toBe(0);
        const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
        expect(t.steps.slice(0, 5).map((s) => s.action.type), r.stderr).toEqual(['hover', 'key', 'click', 'click', 'click']);
        expect(t.steps[0].afterAction, r.stderr).toMatchObject({ rule: 'payment', decision: hover ? 'approved' : 'rejected', requests: [expect.objectContaining({ effect: expect.any(String) })] });
        expect(t.steps[1].afterAction, r.stderr).toMatchObject({ rule: 'payment', decision: key ? 'approved' : 'rejected', requests: [expect.objectContaining({ effect: 'buy' })] });
        expect(t.steps[2].afterAction, r.stderr).toMatchObject({ rule: 'delete', decision: hover ? 'approved' : 'rejected' });
        expect(t.steps[3].afterAction, r.stderr).toBeUndefined(); // opening the list sends nothing
        expect(t.steps[4].afterAction, r.stderr).toMatchObject({ rule: 'payment', decision: key ? 'approved' : 'rejected' });
        await expect.poll(() => [reached('/__api/hover/orders').length, reached('/__api/key/buy').length, reached('/__api/drop/account').length, reached('/__api/select/place-order').length]).toEqual([hover, key, hover, key]);
      } finally {
        await model.close();
      }
    }
  });
}

// The composer in the point dialects: typing there, then Enter (or typing with a closing "\n"),
// is asked before the Enter by the send rule (the first line judges the focused element).
const COMPOSER = { x: 900, y: 680, width: 300, height: 40 }; // fixed (request-effects.html)
const COMPOSE: Record<'glm-pc' | 'cogagent' | 'midscene' | 'ui-tars', string[]> = {
  'glm-pc': [`I will click the message box.\nleft_click(start_box=${glmPoint(COMPOSER)})\nMemory:\n[]`, "I will write.\ntype(content='Hello there')\nMemory:\n[]", "I will send it.\nkey(keys='enter')\nMemory:\n[]", MOVES['glm-pc'].done],
  cogagent: [`Action: Write in the message box.\nGrounded Operation: TYPE(box=${cogBox(COMPOSER)}, text='Hello there', element_type='Textbox', element_info='Aa')\n<<一般操作>>`, "Action: Send it.\nGrounded Operation: KEY_PRESS(key='Return')\n<<一般操作>>", MOVES.cogagent.done],
  midscene: [
    JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'write', log: 'Step 0: write', more_actions_needed_by_instruction: true, action: { type: 'Input', locate: { bbox: bboxIn('norm-xy', COMPOSER, PAGE), prompt: 'Aa' }, param: { value: 'Hello there' } } }),
    JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: 'send', log: 'Step 1: send', more_actions_needed_by_instruction: true, action: { type: 'KeyboardPress', locate: null, param: { value: 'Enter' } } }),
    MOVES.midscene.done,
  ],
  'ui-tars': [`Thought: I will click the message box.\nAction: click(start_box=${tarsPoint(COMPOSER)})`, "Thought: I will write and send.\nAction: type(content='Hello there\\n')", MOVES['ui-tars'].done],
};

for (const [dialect, replies] of Object.entries(COMPOSE) as [keyof typeof COMPOSE, string[]][]) {
  test(`${dialect}: Enter in the chat composer (outside any form) is asked by the send rule before it is pressed; no sends nothing`, async () => {
    site.events.length = 0;
    let n = 0;
    const model = await startFakeModel({ dialect, policy: () => ({ content: replies[Math.min(n++, replies.length - 1)] }) });
    try {
      const traceFile = path.join(out, `${dialect}-composer.json`);
      const r = await agent.run(['--task', 'Write to the seller', '--url', `${site.url}guards/request-effects.html`, '--base-url', model.baseUrl, '--dialect', dialect, '--trace', traceFile, '--max-steps', '6'], {}, 'n\n');
      expect(r.code, r.stderr).toBe(0);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      const asked = t.steps.filter((s) => s.approval?.decision === 'rejected');
      expect(asked, r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/Guard: this (presses Enter in|types into) "Aa"[^\n]*which may send it/);
      expect(reached('/__api/composer/messages')).toEqual([]);
    } finally {
      await model.close();
    }
  });
}

test('dialogs by their words: a confirm that speaks of money charged, or of something gone for good, waits for the person; no answers Cancel', async () => {
  for (const [button, path_, rule] of [[/^Continue$/, '/__api/dialog/next-step', 'payment'], [/^Tidy up$/, '/__api/dialog/tidy', 'delete']] as const) {
    site.events.length = 0;
    const no = await runScripted(agent, site, 'request-effects.html', [{ click: button }, { answer: 'done' }], 'n\n', path.join(out, `dialog-${rule}-no.json`));
    expect(no.r.code, no.r.stderr).toBe(0);
    expect(no.trace.steps[0].afterAction).toMatchObject({ rule, decision: 'rejected', dialog: { type: 'confirm' } });
    expect(no.trace.steps[0].observation).toContain('answered Cancel');
    expect(reached(path_)).toEqual([]);
    const yes = await runScripted(agent, site, 'request-effects.html', [{ click: button }, { answer: 'done' }], 'y\n', path.join(out, `dialog-${rule}-yes.json`));
    expect(yes.trace.steps[0].afterAction).toMatchObject({ rule, decision: 'approved' });
    await expect.poll(() => reached(path_).length).toBe(1);
  }
});

// The press shapes in every other dialect (guards/press-shapes.html: every control at a fixed place
// inside 412 × 800 CSS px, so one set of points serves the desktop and the phone): a link whose
// address orders, asked before the press; "Cancel" that becomes "Place order" as the pointer or
// the finger arrives, not pressed (a tap is cancelled before the finger lifts); a confirm that
// speaks of a charge, answered Cancel; Enter in the only field of a form without a button (not in
// appagent, whose grammar has no Enter), held. Each shape is answered no in some dialects, yes in the others.
type Shape41 = 'link' | 'swap' | 'dialog' | 'field';
const AT: Record<Shape41, typeof OFFERS> = {
  link: { x: 20, y: 100, width: 300, height: 40 }, swap: { x: 20, y: 180, width: 300, height: 40 },
  dialog: { x: 20, y: 260, width: 300, height: 40 }, field: { x: 20, y: 340, width: 300, height: 40 },
};
const PHONE = { width: 412, height: 915 }; // src/background/act/device.ts
const phoneBox = (b: typeof OFFERS) => [[thousandths(b.x, PHONE.width), thousandths(b.y, PHONE.height), thousandths(b.x + b.width, PHONE.width), thousandths(b.y + b.height, PHONE.height)]];
const mobile = (reason: string, action: object) => `Memory: None\nReason: ${reason}\nAction: ${JSON.stringify(action)}`;
const mid = (what: string, action: object | null) => JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: what, log: what, more_actions_needed_by_instruction: action !== null, action });
const tap = (i: number, what: string) => `Observation: The order page.\nThought: I will ${what}.\nAction: tap(${i})\nSummary: [step ${i} done] I tried to ${what}.`;
const NOTE = 'Happy birthday';
/**
 * each dialect's replies, in order; a reply that sets a shape off names it. Every registered
 * dialect has its entry (a new one does not compile without it); null: it plays the shapes elsewhere.
 */
const PRESSES = {
  // by label, in the tests above: the link that orders, "Cancel" swapped, the dialogs, Enter in the one-field form
  'glm-web': null,
  'glm-pc': [
    [`I will open the details.\nleft_click(start_box=${glmPoint(AT.link)})\nMemory:\n[]`, 'link'],
    [`I will cancel.\nleft_click(start_box=${glmPoint(AT.swap)})\nMemory:\n[]`, 'swap'],
    [`I will go on.\nleft_click(start_box=${glmPoint(AT.dialog)})\nMemory:\n[]`, 'dialog'],
    [`I will click the gift note.\nleft_click(start_box=${glmPoint(AT.field)})\nMemory:\n[]`],
    [`I will write it.\ntype(content='${NOTE}')\nMemory:\n[]`],
    ["I will keep it.\nkey(keys='enter')\nMemory:\n[]", 'field'],
    [MOVES['glm-pc'].done],
  ],
  'glm-mobile': [
    [mobile('I will open the details.', { action_type: 'click', box_2d: phoneBox(AT.link) }), 'link'],
    [mobile('I will cancel.', { action_type: 'click', box_2d: phoneBox(AT.swap) }), 'swap'],
    [mobile('I will go on.', { action_type: 'click', box_2d: phoneBox(AT.dialog) }), 'dialog'],
    [mobile('I will write the gift note.', { action_type: 'input_text', text: NOTE, box_2d: phoneBox(AT.field), override: true }), 'field'],
    [mobile('Done.', { action_type: 'status', goal_status: 'complete' })],
  ],
  cogagent: [
    [`Action: Open the details.\nGrounded Operation: CLICK(box=${cogBox(AT.link)}, element_type='Link', element_info='View details')\n<<一般操作>>`, 'link'],
    [`Action: Cancel.\nGrounded Operation: CLICK(box=${cogBox(AT.swap)}, element_type='Button', element_info='Cancel')\n<<一般操作>>`, 'swap'],
    [`Action: Go on.\nGrounded Operation: CLICK(box=${cogBox(AT.dialog)}, element_type='Button', element_info='Continue')\n<<一般操作>>`, 'dialog'],
    [`Action: Write the gift note.\nGrounded Operation: TYPE(box=${cogBox(AT.field)}, text='${NOTE}', element_type='Textbox', element_info='Gift note')\n<<一般操作>>`],
    ["Action: Keep it.\nGrounded Operation: KEY_PRESS(key='Return')\n<<一般操作>>", 'field'],
    [MOVES.cogagent.done],
  ],
  midscene: [
    [mid('open the details', { type: 'Tap', locate: { bbox: bboxIn('norm-xy', AT.link, PAGE), prompt: 'View details' } }), 'link'],
    [mid('cancel', { type: 'Tap', locate: { bbox: bboxIn('norm-xy', AT.swap, PAGE), prompt: 'Cancel' } }), 'swap'],
    [mid('go on', { type: 'Tap', locate: { bbox: bboxIn('norm-xy', AT.dialog, PAGE), prompt: 'Continue' } }), 'dialog'],
    [mid('write the gift note', { type: 'Input', locate: { bbox: bboxIn('norm-xy', AT.field, PAGE), prompt: 'Gift note' }, param: { value: NOTE } })],
    [mid('keep it', { type: 'KeyboardPress', locate: null, param: { value: 'Enter' } }), 'field'],
    [MOVES.midscene.done],
  ],
  'ui-tars': [
    [`Thought: I will open the details.\nAction: click(start_box=${tarsPoint(AT.link)})`, 'link'],
    [`Thought: I will cancel.\nAction: click(start_box=${tarsPoint(AT.swap)})`, 'swap'],
    [`Thought: I will go on.\nAction: click(start_box=${tarsPoint(AT.dialog)})`, 'dialog'],
    [`Thought: I will click the gift note.\nAction: click(start_box=${tarsPoint(AT.field)})`],
    [`Thought: I will write it and keep it.\nAction: type(content='${NOTE}\\n')`, 'field'],
    [MOVES['ui-tars'].done],
  ],
  appagent: [
    [tap(1, 'open the details'), 'link'],
    [tap(2, 'cancel'), 'swap'],
    [tap(3, 'go on'), 'dialog'],
    ['Observation: The order page.\nThought: Done.\nAction: FINISH\nSummary: [step 4 done] Done.'],
  ],
} satisfies Record<DialectId, [string, Shape41?][] | null>;
const SHAPE_PATH: Record<Shape41, string> = { link: '/__api/order/place', swap: '/__api/swap/place-order', dialog: '/__api/dialog/next-step', field: '/__api/one-field/place-order' };

(Object.entries(PRESSES).filter(([, replies]) => replies) as [DialectId, [string, Shape41?][]][]).forEach(([dialect, replies], d) => {
  // one run a dialect: the link, the confirm and the field are answered no, yes, no in one dialect
  // and yes, no, yes in the next, so each shape is refused and let through across the dialects
  const yesTo: Record<Shape41, boolean> = { link: d % 2 === 1, swap: false, dialog: d % 2 === 0, field: d % 2 === 1 };
  const asked: Shape41[] = ['link', 'dialog', 'field'];
  test(`${dialect}: a link that orders (asked before: ${yesTo.link ? 'yes follows it' : 'no follows nothing'}), "Cancel" swapped under the pointer (not pressed), a confirm of a charge (${yesTo.dialog ? 'yes sends' : 'no answers Cancel'}) and Enter in a one-field form (held: ${yesTo.field ? 'yes sends' : 'no blocks'})`, async () => {
    const stepOf = Object.fromEntries(replies.flatMap(([, s], i) => (s ? [[s, i]] : []))) as Partial<Record<Shape41, number>>;
    site.events.length = 0;
    let n = 0;
    const model = await startFakeModel({ dialect, policy: () => ({ content: replies[Math.min(n++, replies.length - 1)][0] }) });
    try {
      const traceFile = path.join(out, `${dialect}-presses.json`);
      const answers = asked.filter((s) => stepOf[s] !== undefined).map((s) => (yesTo[s] ? 'y\n' : 'n\n')).join('');
      const r = await agent.run(['--task', 'Look at the order', '--url', `${site.url}guards/press-shapes.html`, '--base-url', model.baseUrl, '--dialect', dialect, '--trace', traceFile, '--max-steps', String(replies.length + 2)], {}, answers);
      expect(r.code, r.stderr).toBe(0);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      const decision = (s: Shape41) => (yesTo[s] ? 'approved' : 'rejected');
      const step = (s: Shape41) => t.steps[stepOf[s]!];
      expect(step('link').approval, r.stderr).toEqual({ decision: decision('link'), feedback: null });
      expect(r.stderr).toMatch(/Guard: this opens 127\.0\.0\.1:\d+\/__api\/order\/place, an address that would place an order or pay/);
      expect(step('swap').result, r.stderr).toEqual({ ok: false, error: expect.stringContaining('the element there was "Place order", which would place an order or pay') });
      expect(step('dialog').afterAction, r.stderr).toMatchObject({ rule: 'payment', decision: decision('dialog'), dialog: { type: 'confirm' } });
      if (stepOf.field !== undefined) expect(step('field').afterAction, r.stderr).toMatchObject({ rule: 'payment', decision: decision('field') });
      const want = (s: Shape41) => (yesTo[s] && stepOf[s] !== undefined ? 1 : 0);
      await expect.poll(() => (Object.keys(SHAPE_PATH) as Shape41[]).map((s) => reached(SHAPE_PATH[s]).length)).toEqual((Object.keys(SHAPE_PATH) as Shape41[]).map(want));
    } finally {
      await model.close();
    }
  });
});

// "Select" at a fixed place (request-effects.html): (600, 700), 120 × 40 on a 1280 × 800 page
const DBL = { x: 600, y: 700, width: 120, height: 40 };
const DOUBLE: Record<'glm-pc' | 'cogagent' | 'ui-tars', { pick: string; done: string }> = {
  'glm-pc': { pick: `I will pick it.\nleft_double_click(start_box=${glmPoint(DBL)})\nMemory:\n[]`, done: 'Done.\nDONE()\nMemory:\n[]' },
  cogagent: { pick: `Action: Pick it.\nGrounded Operation: DOUBLE_CLICK(box=${cogBox(DBL)}, element_type='Button', element_info='Select')\n<<一般操作>>`, done: 'Action: Done.\nGrounded Operation: END()\n<<一般操作>>' },
  'ui-tars': { pick: `Thought: I will pick it.\nAction: left_double(start_box=${tarsPoint(DBL)})`, done: "Thought: Done.\nAction: finished(content='done')" },
};

for (const [dialect, replies] of Object.entries(DOUBLE) as [keyof typeof DOUBLE, (typeof DOUBLE)[keyof typeof DOUBLE]][]) {
  test(`${dialect}: a double click whose first press makes "Select" into "Place order": the second press is judged and not made; the model is told`, async () => {
    site.events.length = 0;
    let n = 0;
    const model = await startFakeModel({ dialect, policy: () => ({ content: n++ === 0 ? replies.pick : replies.done }) });
    try {
      const traceFile = path.join(out, `${dialect}-double.json`);
      const r = await agent.run(['--task', 'Look at the cart', '--url', `${site.url}guards/request-effects.html`, '--base-url', model.baseUrl, '--dialect', dialect, '--trace', traceFile, '--max-steps', '4'], {}, '');
      expect(r.code, r.stderr).toBe(0);
      const t = JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
      expect(t.steps[0].action).toMatchObject({ type: 'click', count: 2 });
      expect(t.steps[0].result).toEqual({ ok: false, error: expect.stringContaining('the element there was "Place order", which would place an order or pay') });
      expect(t.steps[0].result.ok ? '' : t.steps[0].result.error).toContain('the first click was made, the second was not');
      expect(reached('/__api/double/place-order')).toEqual([]);
    } finally {
      await model.close();
    }
  });
}
