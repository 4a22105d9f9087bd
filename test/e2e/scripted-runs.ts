/**
 * Runs of the runner (npm run agent) on a fixture page with a scripted glm-web model: step i of
 * the run does steps[i], whatever became of the earlier ones (a rejected step counts), finding
 * its element in the element list by its text. The page's reports (/__event) and the trace come
 * back with the runner's output.
 */
import { readFileSync } from 'node:fs';
import { startFakeModel, type FakeModel } from '../fixtures/model/server';
import type { PromptParts } from '../fixtures/dialects/glm-web/request';
import type { CliResult } from './support';
import type { InProcessAgent } from './fixtures';
import type { StaticServer } from '../../scripts/static-server';
import type { Trace } from '../../src/core/trace';

/** `tag`: the element's tag in the list (null: an element listed without one, e.g. a role=button div); `nth`: the nth match (0-based) */
export type Step = { click: RegExp; tag?: string | null; nth?: number } | { type: RegExp; text: string; tag?: string } | { key: string } | { scroll: 'down' | 'up' } | { answer: string };

/** `before`: awaited before the reply to the request for step n (0-based), to let the page do something first. */
export function sequence(steps: Step[], before?: (n: number) => Promise<void>): Promise<FakeModel> {
  return startFakeModel({
    policy: async (req) => {
      const p = req.prompt as PromptParts;
      await before?.(p.history.length);
      const s = steps[Math.min(p.history.length, steps.length - 1)];
      if ('answer' in s) return { content: `Thought: Done.\nAction: ANSWER; <content>${s.answer}</content>\nMemory_Updated: {}` };
      if ('scroll' in s) return { content: `Thought: I will scroll ${s.scroll}.\nAction: Scroll [WINDOW]; [${s.scroll}]\nMemory_Updated: {}` };
      if ('key' in s) return { content: `Thought: I will press ${s.key}.\nAction: Key; [${s.key}]\nMemory_Updated: {}` };
      const find = 'click' in s ? s.click : s.type;
      const el = p.elements.filter((e) => find.test(e.text) && (!('tag' in s) || s.tag === undefined || e.tag === s.tag))['nth' in s ? s.nth ?? 0 : 0];
      if (!el) return { content: `Thought: No element matches ${find}.\nAction: Wait\nMemory_Updated: {}` };
      if ('click' in s) return { content: `Thought: I will click ${el.text}.\nAction: Click [${el.label}]\nMemory_Updated: {}` };
      return { content: `Thought: I will type into ${el.text}.\nAction: Type [${el.label}]; [${s.text}]\nMemory_Updated: {}` };
    },
  });
}

export interface Outcome { r: CliResult; trace: Trace; events: Record<string, string>[]; model: FakeModel }

/** `page` under guards/, run by `agent` (the spec's in-process runner, useAgent); `input`: the runner's stdin (one answer a line); the trace is written to `traceFile`; `before` as sequence's. */
export async function runScripted(agent: InProcessAgent, site: StaticServer, page: string, steps: Step[], input: string, traceFile: string, before?: (n: number) => Promise<void>): Promise<Outcome> {
  const model = await sequence(steps, before);
  try {
    const r = await agent.run(['--task', 'Check the guards', '--url', `${site.url}guards/${page}`, '--base-url', model.baseUrl, '--trace', traceFile, '--max-steps', String(steps.length + 2)], {}, input);
    return { r, trace: JSON.parse(readFileSync(traceFile, 'utf8')) as Trace, events: [...site.events], model };
  } finally {
    await model.close();
  }
}
