/**
 * The scripted demo model in the dialects that get only a screenshot (scripts/demo-speakers.ts):
 * each dialect's own parser reads every move it writes as the action meant, at the point meant
 * (its coordinate space comes from the dialect's formatAction), and each request is told to be
 * its dialect's by its text.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, type DialectId } from '../../src/core/dialects/registry';
import { toMessages } from '../../src/core/dialects/request';
import { isParseError, type Action } from '../../src/core/action/action';
import { dialectOfRequest, lastImage, looksIn, requestText, speak } from '../../scripts/demo-speakers';
import { CURSOR_IN_BOX, type DemoMove } from '../../scripts/demo-look';

/** the dialects it speaks by reading the screenshot: all but glm-web (its element list) and appagent */
const PLAYED = (Object.keys(DIALECTS) as DialectId[]).filter(looksIn);
const size = { width: 1280, height: 800 };
const shot = { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } };
const at = { x: 400, y: 180 };

function read(id: DialectId, m: DemoMove, said = ''): Action {
  const text = speak(id, m, size, said);
  expect(text, `${id} writes ${m.kind}`).not.toBeNull();
  const parsed = DIALECTS[id].parseReply(text!, null, shot);
  if (isParseError(parsed)) throw new Error(`${id} cannot read its own ${m.kind}: ${parsed.error}\n${text}`);
  return parsed.action;
}

const near = (a: Action) => {
  const t = (a as { target?: { kind: string; x?: number; y?: number } }).target;
  return t?.kind === 'point' && Math.abs(t.x! - at.x) <= 3 && Math.abs(t.y! - at.y) <= 3;
};

describe('the demo model\'s replies, read by each dialect', () => {
  for (const id of PLAYED) {
    it(`${id}: click, type, Enter, scroll and the answer are read as meant`, () => {
      expect(read(id, { kind: 'click', at, thought: 'I open it.' })).toMatchObject({ type: 'click' });
      expect(near(read(id, { kind: 'click', at, thought: 'I open it.' }))).toBe(true);
      const typed = read(id, { kind: 'type', at, text: 'Clean Code', thought: 'I search.' }, CURSOR_IN_BOX);
      expect(typed).toMatchObject({ type: 'type', text: 'Clean Code' });
      expect(read(id, { kind: 'scroll', thought: 'I look further down.' })).toMatchObject({ type: 'scroll', direction: 'down' });
      if (id !== 'glm-mobile') expect(read(id, { kind: 'enter', thought: 'I search.' })).toMatchObject({ type: 'key' });
      const answer = read(id, { kind: 'answer', text: '$49.99' });
      expect(['answer', 'finish', 'reply']).toContain(answer.type);
      expect((answer as { text: string }).text).toContain('$49.99');
    });
  }

  it('glm-pc and ui-tars click into the search box before they type; the others type at the box at once', () => {
    for (const id of ['glm-pc', 'ui-tars'] as const) {
      const first = read(id, { kind: 'type', at, text: 'Clean Code', thought: 'I search.' });
      expect(first).toMatchObject({ type: 'click' });
      expect(near(first)).toBe(true);
    }
    for (const id of ['glm-mobile', 'cogagent', 'midscene'] as const) {
      const typed = read(id, { kind: 'type', at, text: 'Clean Code', thought: 'I search.' });
      expect(typed).toMatchObject({ type: 'type', text: 'Clean Code' });
      expect(near(typed)).toBe(true);
    }
  });

  it('glm-mobile answers, then says the task is complete', () => {
    expect(read('glm-mobile', { kind: 'answer', text: '$49.99' })).toMatchObject({ type: 'reply', text: '$49.99' });
    expect(read('glm-mobile', { kind: 'answer', text: '$49.99' }, 'Reason: I give the answer: $49.99.')).toMatchObject({ type: 'finish', outcome: 'done' });
  });

  it('tells each dialect\'s request by its text; glm-web and appagent are not played this way', () => {
    for (const id of Object.keys(DIALECTS) as DialectId[]) {
      const msgs = toMessages(DIALECTS[id].buildRequest({ task: 'T', site: 'http://127.0.0.1/', now: new Date(0), history: [], memory: '', marks: [], shot, apps: [] }), ['data:image/png;base64,AAAA']);
      const body = { model: 'demo-scripted', messages: msgs };
      expect(dialectOfRequest(requestText(body)), id).toBe(looksIn(id) ? id : null);
      expect(lastImage(body)).toBe('data:image/png;base64,AAAA');
    }
    expect(PLAYED).toHaveLength(Object.keys(DIALECTS).length - 2);
    expect(speak('appagent', { kind: 'scroll', thought: '' }, size, '')).toBeNull();
    expect(speak('glm-web', { kind: 'scroll', thought: '' }, size, '')).toBeNull();
  });
});
