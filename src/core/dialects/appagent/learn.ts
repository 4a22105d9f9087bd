/**
 * AppAgent's learning prompts around one action (learn-templates.ts): the reflection that judges
 * an exploring action from the screenshots before and after it (BACK / INEFFECTIVE / CONTINUE /
 * SUCCESS), and the documentation prompt for the element it used (one template per kind of use,
 * the refine suffix when the element already has an entry). Pure; model text, never translated.
 * Tags are AppAgent's: the element's label + 1.
 */
import type { Action } from '../../action/action';
import type { DocAction } from '../../docs/types';
import { peelReasoning, unwrap } from '../shared/reply-text';
import { LONG_PRESS_DOC_TEMPLATE, REFINE_DOC_SUFFIX, SELF_EXPLORE_REFLECT_TEMPLATE, SWIPE_DOC_TEMPLATE, TAP_DOC_TEMPLATE, TEXT_DOC_TEMPLATE } from './learn-templates';

import type { LearnHooks, Reflection, Use, Verdict } from '../types';

/**
 * The use an action makes of a labelled element, or null (an action on no element: nothing to
 * learn about). A scroll is told as the finger's swipe: content scrolled down is a swipe up, as
 * the task grammar maps swipe(N, "up") to a scroll down.
 */
export function useOf(a: Action): Use | null {
  if (!('target' in a) || a.target.kind !== 'label') return null;
  const label = a.target.label;
  switch (a.type) {
    case 'click': return useFor('tap', label);
    case 'press': return useFor('long_press', label);
    case 'type': return useFor('text', label);
    case 'scroll': return useFor('swipe', label, { down: 'up', up: 'down', left: 'right', right: 'left' }[a.direction]);
    default: return null;
  }
}

const VERBS: Record<DocAction, string> = { tap: 'tapping', long_press: 'long pressing', text: 'typing in', swipe: 'swiping' };

/** A use of a labelled element by kind (a demonstration reports the person's this way). */
export function useFor(kind: DocAction, label: number, swipeDir?: string): Use {
  return { kind, label, verb: VERBS[kind], ...(kind === 'swipe' ? { swipeDir: swipeDir ?? 'up' } : {}) };
}

/** Fill <name> placeholders in one pass (a value holding "<task_desc>" is not filled again). */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/<(task_desc|ui_element|action|last_act|swipe_dir|old_doc)>/g, (whole, k: string) => values[k] ?? whole);
}

/** The reflection prompt (sent with the before and after screenshots, in that order). */
export function reflectPrompt(use: Use, summary: string, task: string): string {
  return fill(SELF_EXPLORE_REFLECT_TEMPLATE, { action: use.verb, ui_element: String(use.label + 1), last_act: summary || 'None', task_desc: task });
}

const DOC_TEMPLATES: Record<DocAction, string> = { tap: TAP_DOC_TEMPLATE, text: TEXT_DOC_TEMPLATE, long_press: LONG_PRESS_DOC_TEMPLATE, swipe: SWIPE_DOC_TEMPLATE };

/** The documentation prompt for the element used (with the before and after screenshots); `old`: its entry's text for this use, to refine. */
export function docPrompt(use: Use, task: string, old: string | null): string {
  let p = fill(DOC_TEMPLATES[use.kind], { ui_element: String(use.label + 1), task_desc: task, swipe_dir: use.swipeDir ?? 'up' });
  if (old) p += fill(REFINE_DOC_SUFFIX, { old_doc: old });
  return p;
}

const VERDICTS: Verdict[] = ['BACK', 'INEFFECTIVE', 'CONTINUE', 'SUCCESS'];

/** A field's text: from "Name:" to the next known field, markdown around the name tolerated. */
function field(text: string, name: string): string | null {
  const re = new RegExp(`(?:^|\\n)[\\s*#_>-]*${name}[\\s*_]*[:：]([\\s\\S]*?)(?=\\n[\\s*#_>-]*(?:Decision|Thought|Documentation)[\\s*_]*[:：]|$)`, 'i');
  const m = re.exec(text);
  return m ? m[1].replace(/^[\s*_]+|[\s*_]+$/g, '').trim() : null;
}

/** Read a reflection reply; null when it names no decision. Never throws. */
export function parseReflection(content: string, reasoning: string | null = null): Reflection | null {
  const body = unwrap(peelReasoning(String(content ?? ''), reasoning).body);
  const said = (field(body, 'Decision') ?? '').toUpperCase();
  const decision = VERDICTS.find((v) => said.startsWith(v)) ?? VERDICTS.find((v) => new RegExp(`\\b${v}\\b`).test(said));
  if (!decision) return null;
  const doc = decision === 'INEFFECTIVE' ? null : field(body, 'Documentation') || null;
  return { decision, thought: field(body, 'Thought') ?? '', doc };
}

/** Read a documentation reply: the description, without a leading "Documentation:" or quotes. */
export function parseDoc(content: string, reasoning: string | null = null): string | null {
  const body = unwrap(peelReasoning(String(content ?? ''), reasoning).body).trim();
  const text = (field(body, 'Documentation') ?? body).replace(/^["“']+|["”']+$/g, '').trim();
  return text ? text.slice(0, 2000) : null;
}

/** What the run reaches through the registry (Dialect.learn): exploring and demonstrations. */
export const learnHooks: LearnHooks = { useOf, useFor, reflectPrompt, docPrompt, parseReflection, parseDoc };
