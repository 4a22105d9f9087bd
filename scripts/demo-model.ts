/**
 * The bundled scripted demo model: an OpenAI-compatible server on 127.0.0.1
 * that plays the demo task by reading the element list in each prompt. It is
 * not a real model; `npm run demo` says so when it uses it.
 */
import { startFakeModel, type FakeModel } from '../test/fixtures/model/server';
import { scriptedPolicy, type Goal } from '../test/fixtures/model/scripted';

export const DEMO_TASK = 'Find the price of the hardcover edition of "The Pragmatic Programmer"';

export const DEMO_GOALS: Goal[] = [
  { do: 'type', find: /search books/i, text: 'Pragmatic Programmer', thought: 'The shop has a search box; I will search for the book by title.' },
  { do: 'click', find: /^The Pragmatic Programmer$/, thought: 'The results list the book; I will open its page.' },
  { do: 'click', find: /format|paperback/i, tag: 'select', thought: 'The price depends on the format; I will open the Format list.' },
  { do: 'click', find: /^Hardcover$/, thought: 'The list shows the formats; I will choose Hardcover.' },
  { do: 'answer', from: /Add Hardcover to cart - (\$[\d.]+)/, thought: 'The button now shows the hardcover price.' },
];

export function startDemoModel(): Promise<FakeModel> {
  const policy = scriptedPolicy(DEMO_GOALS, 'glm');
  return startFakeModel({ apiKey: undefined, models: ['demo-scripted'], policy: (req) => policy(req.prompt) });
}
