/**
 * A glm-web request is byte-identical to what the extension sent before the dialect seam: the
 * fixture was written by the earlier code (glmWeb.buildMessages at commit 8b2f391) for this
 * context — quotes, backslashes, line breaks and tabs in page text and history, a long element
 * text, more than 15 past steps, "{TASK}" inside the task, a nested memory.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { glmWeb } from '../../src/core/dialects/glm-web';
import { toMessages } from '../../src/core/dialects/request';
import type { Mark } from '../../src/core/marks';

const before = JSON.parse(readFileSync(new URL('../fixtures/glm-web/request-before-dialects.json', import.meta.url), 'utf8')) as { messages: unknown };

const r = { x: 0, y: 0, width: 1, height: 1 };
const marks: Mark[] = [
  { label: 0, tag: 'a', text: 'Learn "more"\nnow', rect: r },
  { label: 1, tag: 'button', text: 'Close \\ x', rect: r },
  { label: 2, tag: 'input', text: '', rect: r },
  { label: 3, tag: 'select', text: 'Sort: price', rect: r },
  { label: 4, tag: 'div', text: 'x'.repeat(300), rect: r },
];
const history = Array.from({ length: 18 }, (_, i) => ({
  index: i, hasScreenshot: true, memory: {},
  thought: `step ${i}\nthinking\t{Memory}`, action: i % 2 ? `Click [${i}]` : `Type [2]; [q ${i}]`,
  observation: i % 3 ? 'Success' : 'The element [3] changed; labels were refreshed.',
}));

describe('glm-web requests', () => {
  it('are byte-identical to the ones sent before dialects', () => {
    const parts = glmWeb.buildRequest({
      task: 'Find {TASK} the "cheapest" lamp', site: 'https://shop.example/', now: new Date(2025, 6, 26, 15, 42), history,
      memory: { price: '$12', list: [1, 2] }, marks, shot: { imageWidth: 1280, imageHeight: 800, viewport: { width: 1280, height: 800 } }, apps: [],
    });
    const now = { messages: toMessages(parts, ['data:image/png;base64,iVBORw0KGgo=']) };
    expect(JSON.stringify(now)).toBe(JSON.stringify(before));
  });
});
