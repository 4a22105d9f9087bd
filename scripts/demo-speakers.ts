/**
 * The scripted demo model in each dialect that gets only a screenshot: how it knows a request is
 * that dialect's, and how it writes a DemoMove (demo-look.ts) as that model writes its replies.
 * The actions themselves are written by the dialect's own formatAction (the grammar the run parses),
 * at points of the screenshot (the shot given to formatAction is the image itself, so each
 * dialect's coordinate space, thousandths, resized pixels or boxes, comes out as its model writes it).
 * AppAgent is not played: its model picks the numbered tags drawn on the screenshot, which the
 * demo model cannot read reliably; it is told so at once (demo-model.ts).
 */
import type { Action } from '../src/core/action/action';
import type { ShotGeometry } from '../src/core/action/coords';
import { DIALECTS, type DialectId } from '../src/core/dialects/registry';
import { CURSOR_IN_BOX, type DemoMove } from './demo-look';

/** A request's text: every message's text parts, in order (the history's earlier moves among them). */
export function requestText(body: Record<string, unknown>): string {
  const msgs = Array.isArray(body.messages) ? body.messages as Array<{ content?: unknown }> : [];
  return msgs.flatMap((m) => (typeof m.content === 'string' ? [m.content]
    : Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>).filter((p) => p.type === 'text').map((p) => p.text ?? '') : [])).join('\n');
}

/** The last picture of a request (the screenshot of the page now), or null. */
export function lastImage(body: Record<string, unknown>): string | null {
  const msgs = Array.isArray(body.messages) ? body.messages as Array<{ content?: unknown }> : [];
  const urls = msgs.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type?: string; image_url?: { url?: string } }>).filter((p) => p.type === 'image_url').map((p) => p.image_url?.url ?? '') : []));
  return urls.at(-1) || null;
}

const point = (at: { x: number; y: number }) => ({ kind: 'point' as const, x: at.x, y: at.y });
const click = (at: { x: number; y: number }): Action => ({ type: 'click', target: point(at), button: 'left', count: 1 });
const enter: Action = { type: 'key', keys: 'enter' };
const scrollPage: Action = { type: 'scroll', target: { kind: 'window' }, direction: 'down' };

/** A reply in the dialect's form; `said` is the request's text (what earlier moves said). */
type Writer = (m: DemoMove, shot: ShotGeometry, said: string) => string;

/**
 * How the demo model speaks a dialect: `signature`, what the dialect's request holds that no other
 * one does (glm-web's step is told apart first: demo-model.ts isWebStep); `writer`, its replies.
 */
interface Speaker { signature: string; writer: (f: (a: Action, shot: ShotGeometry) => string) => Writer }

/**
 * Typing in a grammar that types only into the focused field (glm-pc, ui-tars): a click into the
 * box first, which says so (CURSOR_IN_BOX, read back from the history), then the text.
 */
function typeFocused(m: Extract<DemoMove, { kind: 'type' }>, said: string, say: (thought: string, call: string) => string, write: (a: Action) => string, enter: boolean): string {
  if (!said.includes(CURSOR_IN_BOX)) return say(CURSOR_IN_BOX, write(click(m.at)));
  return say(m.thought, write({ type: 'type', target: { kind: 'none' }, text: m.text, clear: false, enter }));
}

const centre = (shot: ShotGeometry) => ({ x: Math.round(shot.imageWidth / 2), y: Math.round(shot.imageHeight / 2) });

const glmPc: Speaker = {
  signature: 'key(keys=',
  writer: (f) => {
    const pc = (thought: string, call: string) => `${thought}\n${call}\nMemory:\n[]`;
    return (m, shot, said) => {
      switch (m.kind) {
        case 'click': return pc(m.thought, f(click(m.at), shot));
        case 'type': return typeFocused(m, said, pc, (a) => f(a, shot), false);
        case 'enter': return pc(m.thought, f(enter, shot));
        case 'scroll': return pc(m.thought, f({ type: 'scroll', target: point(centre(shot)), direction: 'down', ticks: 5 }, shot));
        case 'answer': return `${m.text}\nDONE()\nMemory:\n[${JSON.stringify({ answer: m.text })}]`;
        case 'give-up': return pc(m.thought, 'FAIL()');
      }
    };
  },
};

const glmMobile: Speaker = {
  signature: '"action_type"',
  writer: (f) => {
    const mobile = (reason: string, action: string, memory = 'None') => `Memory: ${memory}\nReason: ${reason}\nAction: ${action}`;
    const infeasible = '{"action_type": "status", "goal_status": "infeasible"}';
    return (m, shot, said) => {
      switch (m.kind) {
        case 'click': return mobile(m.thought, f(click(m.at), shot));
        // input_text clicks the field, types and presses Enter
        case 'type': return mobile(m.thought, f({ type: 'type', target: point(m.at), text: m.text, clear: true, enter: true }, shot));
        case 'enter': return mobile('The search did not start.', infeasible);
        case 'scroll': return mobile(m.thought, f(scrollPage, shot));
        case 'answer': {
          const told = `I give the answer: ${m.text}.`;
          if (said.includes(told)) return mobile('The question is answered.', '{"action_type": "status", "goal_status": "complete"}', `Answer: ${m.text}`);
          return mobile(told, JSON.stringify({ action_type: 'answer', text: m.text }), `Answer: ${m.text}`);
        }
        case 'give-up': return mobile(m.thought, infeasible);
      }
    };
  },
};

const cogagent: Speaker = {
  signature: 'Action-Operation-Sensitive',
  writer: (f) => {
    const cog = (sentence: string, op: string) => `Action: ${sentence}\nGrounded Operation: ${op}\n<<一般操作>>`;
    const quoted = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    return (m, shot) => {
      switch (m.kind) {
        case 'click': return cog(m.thought, f(click(m.at), shot));
        case 'type': return cog(m.thought, f(click(m.at), shot).replace(/^CLICK\((.*)\)$/, `TYPE($1, text=${quoted(m.text)})`));
        case 'enter': return cog(m.thought, f(enter, shot));
        case 'scroll': return cog(m.thought, f({ type: 'scroll', target: point(centre(shot)), direction: 'down', ticks: 5 }, shot));
        // END's Action sentence is the run's answer
        case 'answer': return cog(m.text, 'END()');
        case 'give-up': return cog(m.thought, 'END()');
      }
    };
  },
};

const midscene: Speaker = {
  signature: 'Target: User will give you a screenshot',
  writer: (f) => {
    const plan = (want: string, log: string, action: unknown, more = true) =>
      JSON.stringify({ what_the_user_wants_to_do_next_by_instruction: want, log, more_actions_needed_by_instruction: more, action }, null, 2);
    const json = (a: Action, shot: ShotGeometry) => JSON.parse(f(a, shot)) as Record<string, unknown>;
    return (m, shot) => {
      switch (m.kind) {
        case 'click': return plan('use the page', `${m.thought}`, json(click(m.at), shot));
        case 'type': return plan(`search for "${m.text}"`, m.thought, { type: 'Input', locate: json(click(m.at), shot).locate, param: { value: m.text } });
        case 'enter': return plan('start the search', m.thought, json(enter, shot));
        case 'scroll': return plan('see more of the page', m.thought, json(scrollPage, shot));
        case 'answer': return plan('nothing more', m.text, null, false);
        case 'give-up': return plan('stop', m.thought, null, false);
      }
    };
  },
};

const uiTars: Speaker = {
  signature: 'You are a GUI agent. You are given a task and your action history',
  writer: (f) => {
    const tars = (thought: string, action: string) => `Thought: ${thought}\nAction: ${action}`;
    return (m, shot, said) => {
      switch (m.kind) {
        case 'click': return tars(m.thought, f(click(m.at), shot));
        // a "\n" at the end submits
        case 'type': return typeFocused(m, said, tars, (a) => f(a, shot), true);
        case 'enter': return tars(m.thought, f(enter, shot));
        case 'scroll': return tars(m.thought, f(scrollPage, shot));
        case 'answer': return tars('I have found the price.', f({ type: 'finish', outcome: 'done', text: m.text }, shot));
        case 'give-up': return tars(m.thought, f({ type: 'finish', outcome: 'done', text: m.thought }, shot));
      }
    };
  },
};

/**
 * Every dialect, and how the demo model speaks it by reading the screenshot (null: not this way:
 * glm-web is played by its element list; appagent's model picks numbered tags the demo cannot read).
 */
const SPEAKERS = {
  'glm-web': null,
  'glm-pc': glmPc,
  'glm-mobile': glmMobile,
  cogagent,
  midscene,
  appagent: null,
  'ui-tars': uiTars,
} satisfies Record<DialectId, Speaker | null>;

/** Whether the demo model plays dialect `id` by reading the screenshot. */
export function looksIn(id: DialectId): boolean {
  return SPEAKERS[id] !== null;
}

/** The dialect whose request this is (by its text, `said`), or null (glm-web's is told apart by demo-model.ts isWebStep). */
export function dialectOfRequest(said: string): DialectId | null {
  for (const [id, sp] of Object.entries(SPEAKERS) as Array<[DialectId, Speaker | null]>) if (sp && said.includes(sp.signature)) return id;
  return null;
}

/** The reply of the demo model in dialect `id` for a move on a screenshot of `width` × `height` pixels; null: not played this way. */
export function speak(id: DialectId, m: DemoMove, size: { width: number; height: number }, said: string): string | null {
  const sp: Speaker | null = SPEAKERS[id];
  if (!sp) return null;
  const shot: ShotGeometry = { imageWidth: size.width, imageHeight: size.height, viewport: { width: size.width, height: size.height } };
  return sp.writer((a, g) => DIALECTS[id].formatAction(a, g))(m, shot, said);
}
