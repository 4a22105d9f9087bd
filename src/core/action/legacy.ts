/**
 * Actions as version 1 of the trace format and the first database schema kept them (GLM web
 * only: `{type:'click', label}`, `{type:'type', label, text}`, `{type:'scroll', target:{kind:
 * 'window'|'element', label?}, direction}`, `{type:'key', key:'Enter'}`), read into the current
 * Action model. Current actions pass through unchanged.
 */
import { at, type Action } from './action';

type Old = Record<string, unknown>;

function label(o: Old): number | null {
  return typeof o.label === 'number' ? o.label : null;
}

export function upgradeAction(a: unknown): Action | null {
  if (!a || typeof a !== 'object') return null;
  const o = a as Old;
  if ('target' in o && o.type !== 'scroll') return a as Action; // already current
  switch (o.type) {
    case 'click': {
      const l = label(o);
      return l === null ? null : { type: 'click', target: at.label(l), button: 'left', count: 1 };
    }
    case 'type': {
      const l = label(o);
      return l === null ? null : { type: 'type', target: at.label(l), text: String(o.text ?? ''), clear: true, enter: true };
    }
    case 'scroll': {
      const t = o.target as Old | undefined;
      const direction = o.direction === 'up' || o.direction === 'down' || o.direction === 'left' || o.direction === 'right' ? o.direction : 'down';
      if (t?.kind === 'element' && typeof t.label === 'number') return { type: 'scroll', target: at.label(t.label), direction };
      if (t?.kind === 'window') return { type: 'scroll', target: at.window(), direction };
      return { ...(a as Action & { type: 'scroll' }), direction } as Action; // current form
    }
    case 'key':
      return typeof o.keys === 'string' ? (a as Action) : { type: 'key', keys: 'Enter' };
    default:
      return a as Action;
  }
}
