/**
 * AppAgent's learning prompts (src/core/dialects/appagent/learn.ts): the reflection and
 * documentation prompts are the seed's templates with tags written label + 1, the refine suffix
 * only when an entry exists, and replies read tolerantly.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { docPrompt, parseDoc, parseReflection, reflectPrompt, useOf } from '../../src/core/dialects/appagent/learn';
import { REFINE_DOC_SUFFIX, SELF_EXPLORE_REFLECT_TEMPLATE, TAP_DOC_TEMPLATE } from '../../src/core/dialects/appagent/learn-templates';

const seed = readFileSync(new URL('../fixtures/seeds/appagent-prompts.txt', import.meta.url), 'utf8');

describe('AppAgent learning prompts', () => {
  it('are the seed\'s templates word for word', () => {
    for (const t of [SELF_EXPLORE_REFLECT_TEMPLATE, TAP_DOC_TEMPLATE]) expect(seed).toContain(t.slice(0, 300));
    expect(seed).toContain(REFINE_DOC_SUFFIX.slice(1, 200));
  });

  it('name the use of an element, with tags from 1', () => {
    const at = { kind: 'label' as const, label: 4 };
    expect(useOf({ type: 'click', target: at, button: 'left', count: 1 })).toEqual({ kind: 'tap', label: 4, verb: 'tapping' });
    expect(useOf({ type: 'press', target: at })).toEqual({ kind: 'long_press', label: 4, verb: 'long pressing' });
    expect(useOf({ type: 'scroll', target: at, direction: 'down' })).toEqual({ kind: 'swipe', label: 4, verb: 'swiping', swipeDir: 'up' });
    expect(useOf({ type: 'type', target: { kind: 'none' }, text: 'x', clear: false, enter: false })).toBeNull();
    expect(useOf({ type: 'goBack' })).toBeNull();
    const p = reflectPrompt(useOf({ type: 'click', target: at, button: 'left', count: 1 })!, 'I opened the menu.', 'buy a kettle');
    expect(p).toContain("before and after tapping the UI\nelement labeled with the number '5' on the first screenshot");
    expect(p).toContain('described as follows:\nI opened the menu.\n');
    expect(p).toContain('which is to buy a kettle.');
    expect(p).not.toMatch(/<(action|ui_element|last_act|task_desc)>/);
  });

  it('documentation prompts: the template for the use, the refine suffix only with an old entry', () => {
    const use = useOf({ type: 'scroll', target: { kind: 'label', label: 0 }, direction: 'up' })!;
    const fresh = docPrompt(use, 'read the news', null);
    expect(fresh).toContain('before and after swiping down the UI\nelement labeled with the number 1 on the screen');
    expect(fresh).not.toContain('Old documentation');
    const refined = docPrompt(use, 'read the news', 'Swiping this area scrolls the list.');
    expect(refined.startsWith(fresh)).toBe(true);
    expect(refined.endsWith('Old documentation of this UI element: Swiping this area scrolls the list.')).toBe(true);
    // a task holding a placeholder is not filled again
    expect(docPrompt(useOf({ type: 'click', target: { kind: 'label', label: 0 }, button: 'left', count: 1 })!, 'say <old_doc>', null)).toContain('which is to say <old_doc>.');
  });

  it('reads reflections and documentation tolerantly', () => {
    expect(parseReflection('Decision: BACK\nThought: wrong page\nDocumentation: Tapping this opens the help center.')).toEqual({ decision: 'BACK', thought: 'wrong page', doc: 'Tapping this opens the help center.' });
    expect(parseReflection('**Decision:** INEFFECTIVE\n**Thought:** nothing changed\nDocumentation: ignored')).toEqual({ decision: 'INEFFECTIVE', thought: 'nothing changed', doc: null });
    expect(parseReflection('<think>hmm</think>\nDecision: SUCCESS.\nThought: the cart opened\nDocumentation: Opens the cart.')?.decision).toBe('SUCCESS');
    expect(parseReflection('Decision: continue\nThought: a popup')).toEqual({ decision: 'CONTINUE', thought: 'a popup', doc: null });
    expect(parseReflection('I am not sure what happened.')).toBeNull();
    expect(parseDoc('"Tapping this area opens the basket."')).toBe('Tapping this area opens the basket.');
    expect(parseDoc('Documentation: This input area takes a search term.')).toBe('This input area takes a search term.');
    expect(parseDoc('   ')).toBeNull();
  });
});
