/**
 * The ui-tars conversation against the SDK's own (`@ui-tars/sdk` 1.2.3, a dev dependency only):
 * the SDK's GUIAgent runs the same steps (the same replies, the same screenshots) with a model and
 * an operator that only record, and the messages it would send at the next step are compared with
 * the dialect's request for the same history: roles, order, every text, and which screenshots go
 * (the 5-image window, with more than 5 earlier steps). The dialect departs from the SDK in two
 * ways only, each named and undone here before the comparison:
 *  1. the SDK's first message carries an empty "## History Messages" section (it has no history
 *     messages from an earlier session); the dialect leaves it out;
 *  2. the dialect tells the model what became of a step that was not plain "Success" (an
 *     "Observation: …" text in the next user message); the SDK's conversation has no place for it.
 */
import { describe, expect, it } from 'vitest';
import { Jimp } from 'jimp';
import { GUIAgent } from '@ui-tars/sdk';
import { UITarsModel, convertToOpenAIMessages, type InvokeOutput, type InvokeParams } from '@ui-tars/sdk/core';
import { DIALECTS } from '../../../src/core/dialects/registry';
import { toMessages } from '../../../src/core/dialects/request';
import type { HistoryEntry } from '../../../src/core/dialects/types';
import { golden } from '../../fixtures/dialects/ui-tars/cases';

const uiTars = DIALECTS['ui-tars'];
const TASK = 'Find a desk lamp under 30 euros and add it to the cart';
const SDK_EMPTY_HISTORY = '## History Messages\n\n\n';

/** The replies of the earlier steps, as a UI-TARS model writes them (box tokens, quoted directions, a reflection, a summary). */
const REPLIES = [
  "Thought: The search box is at the top of the page.\nAction: click(start_box='<|box_start|>(790,37)<|box_end|>')",
  "Thought: I type the words and press Enter.\nAction: type(content='desk lamp\\n')",
  "Reflection: The results are there, but the cheap lamps are further down.\nThought: Scroll down to see more results.\nAction: scroll(start_box='(640,400)', direction='down')",
  "Thought: The third lamp costs 24.90 euros.\nAction_Summary: open the third lamp\nAction: click(start_box='(412,518)')",
  "Thought: The page did not open; I try the title instead.\nAction: click(start_box='<|box_start|>(405,470)<|box_end|>')",
  "Thought: Add it to the cart.\nAction: hotkey(key='ctrl d')",
  "Thought:  Wait for the cart to update. \nAction: wait()",
];
/** what the run saw of each step (the fifth failed: the dialect says so, the SDK cannot) */
const OBSERVATIONS = REPLIES.map((_, i) => (i === 3 ? 'The click landed on nothing that reacts; the page did not change.' : 'Success'));

/** A distinct PNG per screenshot (base64, no prefix), so each image is known by its bytes. */
async function screenshots(n: number): Promise<string[]> {
  return Promise.all(Array.from({ length: n }, async (_, i) => {
    const png = await new Jimp({ width: 8, height: 8, color: 0x10203040 + i * 0x01010100 + 0xff }).getBase64('image/png');
    return png.replace(/^data:image\/png;base64,/, '');
  }));
}

interface Seen { role: string; text: string; images: number[] }

/** A message as compared: its role, its texts joined, and which screenshots (by step) it carries. */
function seen(messages: Array<{ role: string; content: unknown }>, shots: string[]): Seen[] {
  return messages.map((m) => {
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Array<{ type: string; text?: string; image_url?: { url: string } }>);
    return {
      role: m.role,
      text: parts.filter((p) => p.type === 'text').map((p) => p.text).join(''),
      images: parts.filter((p) => p.type === 'image_url').map((p) => shots.indexOf(p.image_url!.url.replace(/^data:image\/png;base64,/, ''))),
    };
  });
}

/** The messages the SDK's GUIAgent sends at the step after REPLIES, its model and operator only recording. */
async function sdkMessages(shots: string[]): Promise<Array<{ role: string; content: unknown }>> {
  let sent: Array<{ role: string; content: unknown }> = [];
  let calls = 0;
  class Recorder extends UITarsModel {
    constructor() { super({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'none', model: 'ui-tars' }); }
    override async invoke(params: InvokeParams): Promise<InvokeOutput> {
      const k = calls++;
      sent = convertToOpenAIMessages({ conversations: params.conversations, images: params.images }) as typeof sent;
      const done = k >= REPLIES.length;
      return {
        prediction: done ? "Thought: Done.\nAction: finished(content='added')" : REPLIES[k],
        parsedPredictions: [{ action_type: done ? 'finished' : 'click', action_inputs: {}, reflection: null, thought: '' }],
      };
    }
  }
  let shown = 0;
  const operator = {
    screenshot: async () => ({ base64: shots[shown++], scaleFactor: 1 }),
    execute: async () => ({}),
  };
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, log: () => undefined, debug: () => undefined };
  const agent = new GUIAgent({ model: new Recorder(), operator: operator as never, logger: quiet as never });
  await agent.run(TASK);
  expect(calls).toBe(REPLIES.length + 1);
  return sent;
}

/** The dialect's request for the same steps, its images the same screenshots. */
function dialectMessages(shots: string[]): Array<{ role: string; content: unknown }> {
  const history: HistoryEntry[] = REPLIES.map((reply, index) => ({
    index, reply, thought: 'parsed thought (not sent: the reply is)', action: 'formatted action (not sent: the reply is)', observation: OBSERVATIONS[index], hasScreenshot: true,
  }));
  const parts = uiTars.buildRequest({ ...golden.ctx, task: TASK, history });
  const images = parts.flatMap((p) => (p.type === 'image' ? [`data:image/png;base64,${shots[p.of === 'current' ? REPLIES.length : p.of]}`] : []));
  return toMessages(parts, images);
}

describe('ui-tars: the conversation is the SDK\'s', () => {
  it('the same messages as the SDK\'s GUIAgent sends, but for the two named differences', async () => {
    const shots = await screenshots(REPLIES.length + 1);
    const sdk = seen(await sdkMessages(shots), shots);
    const ours = seen(dialectMessages(shots), shots);

    // difference 1: the SDK's empty "## History Messages" section, in its first message only
    expect(sdk[0].text).toContain(SDK_EMPTY_HISTORY);
    expect(ours[0].text).not.toContain('## History Messages');
    sdk[0].text = sdk[0].text.replace(SDK_EMPTY_HISTORY, '');

    // difference 2: the dialect's "Observation: …" for the step that failed, before the next screenshot
    const told = ours.filter((m) => m.role === 'user' && m.text.startsWith('Observation: '));
    expect(told.map((m) => m.text)).toEqual([`Observation: ${OBSERVATIONS[3]}`]);
    const oursAsSdk = ours.map((m) => (told.includes(m) ? { ...m, text: '' } : m)).filter((m) => m.text || m.images.length);

    expect(oursAsSdk).toEqual(sdk);

    // what that comparison holds, said plainly: the replies go back as written (box tokens, quotes,
    // the Action_Summary), the reflection (and what follows it up to the action) left out; five screenshots, the last five
    const assistant = ours.filter((m) => m.role === 'assistant').map((m) => m.text);
    expect(assistant[0]).toBe(REPLIES[0]);
    expect(assistant[0]).toContain("<|box_start|>(790,37)<|box_end|>");
    // (the SDK's getSummary takes everything from "Reflection:" up to "Action:", the thought after it included)
    expect(assistant[2]).toBe("Action: scroll(start_box='(640,400)', direction='down')");
    expect(assistant[3]).toContain('Action_Summary: open the third lamp');
    expect(assistant[6]).toBe(REPLIES[6].trim());
    expect(ours.flatMap((m) => m.images)).toEqual([3, 4, 5, 6, 7]);
  });

  it('an action the person edited goes back as what was done, in the model\'s grammar', () => {
    const history: HistoryEntry[] = [{ index: 0, thought: 'Open the first result.', action: "click(start_box='(100,200)')", observation: 'Success', hasScreenshot: true }];
    const messages = toMessages(uiTars.buildRequest({ ...golden.ctx, history }), ['data:image/png;base64,AA==', 'data:image/png;base64,AB==']);
    expect(messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(["Thought: Open the first result.\nAction: click(start_box='(100,200)')"]);
  });
});
