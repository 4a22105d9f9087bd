/**
 * A plain description of any action, for a grammar that has no words for it (an action from
 * another dialect's run shown in this one's history). Model-facing text: never translated.
 */
import type { Action, Target } from '../../action/action';

function place(t: Target): string {
  switch (t.kind) {
    case 'label': return `[${t.label}]`;
    case 'point': return `(${Math.round(t.x)}, ${Math.round(t.y)})`;
    case 'window': return 'the window';
    case 'none': return 'the focused element';
  }
}

export function describeOther(a: Action): string {
  switch (a.type) {
    case 'click': return `(${a.count === 2 ? 'double ' : ''}${a.button === 'left' ? '' : `${a.button} `}click at ${place(a.target)})`;
    case 'hover': return `(hover at ${place(a.target)})`;
    case 'press': return `(long press at ${place(a.target)})`;
    case 'drag': return `(drag from ${place(a.target)} to (${Math.round(a.to.x)}, ${Math.round(a.to.y)}))`;
    case 'type': return `(type "${a.text}" into ${place(a.target)})`;
    case 'scroll': return `(scroll ${a.direction} at ${place(a.target)}${a.until ? ' to the end' : a.ticks ? ` by ${a.ticks}` : a.pixels ? ` by ${a.pixels} px` : ''})`;
    case 'key': return `(press ${a.keys})`;
    case 'wait': return '(wait)';
    case 'goBack': return '(go back)';
    case 'goHome': return '(go to the start page)';
    case 'search': return '(open the search page)';
    case 'navigate': return `(go to ${a.url})`;
    case 'openApp': return `(open ${a.name})`;
    case 'quote': return `(quote the text in (${Math.round(a.box.x)}, ${Math.round(a.box.y)}, ${Math.round(a.box.x + a.box.width)}, ${Math.round(a.box.y + a.box.height)})${a.all ? ', scrolling to the end' : ''} into ${a.output})`;
    case 'llm': return `(ask the language model "${a.prompt}" into ${a.output})`;
    case 'clipboard': return `(quote the clipboard into ${a.output})`;
    case 'answer': return `(answer: ${a.text})`;
    case 'reply': return `(tell the user: ${a.text})`;
    case 'finish': return `(${a.outcome === 'done' ? 'task done' : 'task impossible'}: ${a.text})`;
  }
}
