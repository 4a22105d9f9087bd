/**
 * The gate: what an action's input would set off, whatever the dialect and the action's form.
 * Every action is reduced here to the inputs that can activate an element (docs/guards.md):
 *
 * - a press on its target: a click of any button or count, a tap, a long press (touch or mouse),
 *   and both ends of a drag (the press point and the release point: a button is clicked when the
 *   pointer goes down and up on it);
 * - text typed into its target (or the focused element): a field takes it; an element that is not
 *   a field would be clicked by the attempt (judged as a press), a <select> chooses an option;
 * - Enter with its target (or the focused element): a field of a form submits the form (its
 *   default button), a button or link is activated;
 * - Space with the focused element: a button, a checkbox or a link-like control is activated.
 *
 * `activations` is exhaustive over the action union (a new action kind does not compile until it
 * says what it activates), and the background resolves every activation to the element there
 * before the guards judge (background/gate.ts). Pure.
 */
import type { Action, Point } from '../action/action';

/** How an input reaches the element: pressed, typed into, Enter or Space while it has the focus. */
export type Reach = 'press' | 'type' | 'enter' | 'space';

/** Where the element is: the action's own target, the focused element, or a point of the top page (a drag's release). */
export type Where = { at: 'target' } | { at: 'focused' } | { at: 'point'; point: Point };

export interface Activation { how: Reach; where: Where }

const TARGET: Where = { at: 'target' };
const FOCUSED: Where = { at: 'focused' };

/** The keys of a key action, by our names ("Control+Enter" -> ["control", "enter"]). */
function keysOf(keys: string): string[] {
  return keys.split('+').map((k) => k.trim().toLowerCase()).filter(Boolean);
}

/** A key combination whose last key is Enter (with or without modifiers: Ctrl+Enter sends in many editors). */
export function keyPressesEnter(keys: string): boolean {
  const last = keysOf(keys).pop();
  return last === 'enter' || last === 'return' || last === 'numpadenter' || last === 'kp_enter';
}

/** A combination whose last key is Space (our name: action/keys.ts; " " as a model may write it). */
export function keyPressesSpace(keys: string): boolean {
  if (keys.length > 0 && keys.trim() === '') return true;
  const last = keysOf(keys).pop();
  return last === 'space' || last === 'spacebar';
}

/** Everything the action's input could activate, in the order it happens. */
export function activations(a: Action): Activation[] {
  switch (a.type) {
    case 'click':
    case 'press':
      return [{ how: 'press', where: TARGET }];
    case 'drag':
      return [{ how: 'press', where: TARGET }, { how: 'press', where: { at: 'point', point: a.to } }];
    case 'type': {
      const where = a.target.kind === 'none' || a.target.kind === 'window' ? FOCUSED : TARGET;
      return a.enter ? [{ how: 'type', where }, { how: 'enter', where }] : [{ how: 'type', where }];
    }
    case 'key':
      if (keyPressesEnter(a.keys)) return [{ how: 'enter', where: FOCUSED }];
      if (keyPressesSpace(a.keys)) return [{ how: 'space', where: FOCUSED }];
      return [];
    // Moving the pointer, scrolling the wheel, reading and thinking activate nothing; going
    // somewhere is judged from the address itself (guards/index.ts, leave-site).
    case 'hover':
    case 'scroll':
    case 'wait':
    case 'goBack':
    case 'goHome':
    case 'search':
    case 'navigate':
    case 'openApp':
    case 'quote':
    case 'llm':
    case 'clipboard':
    case 'answer':
    case 'reply':
    case 'finish':
      return [];
    default: {
      const unknown: never = a;
      throw new Error(`activations: unknown action ${JSON.stringify(unknown)}`);
    }
  }
}
