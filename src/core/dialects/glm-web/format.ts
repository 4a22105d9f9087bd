/**
 * An action written in the GLM web (WebVoyager) grammar: "Click [12]", "Type [2]; [text]",
 * "Scroll [WINDOW]; [down]", "Wait", "GoBack", "Bing", "Key; [Return]",
 * "ANSWER; <content>…</content>". Actions this grammar has no words for (they come from another
 * dialect's run) are described in brackets, never written as something they are not.
 */
import type { Action, Target } from '../../action/action';
import { describeOther } from '../shared/describe';

function where(t: Target): string | null {
  if (t.kind === 'label') return String(t.label);
  if (t.kind === 'window') return 'WINDOW';
  return null;
}

export function formatWebAction(a: Action): string {
  switch (a.type) {
    case 'click': {
      const w = where(a.target);
      if (w !== null && w !== 'WINDOW' && a.button === 'left' && a.count === 1) return `Click [${w}]`;
      break;
    }
    case 'type': {
      const w = where(a.target);
      if (w !== null && w !== 'WINDOW' && a.clear && a.enter) return `Type [${w}]; [${a.text}]`;
      break;
    }
    case 'scroll': {
      const w = where(a.target);
      if (w !== null && (a.direction === 'up' || a.direction === 'down') && a.ticks === undefined) return `Scroll [${w}]; [${a.direction}]`;
      break;
    }
    case 'wait': return 'Wait';
    case 'goBack': return 'GoBack';
    case 'search': return 'Bing';
    case 'key':
      if (a.keys === 'Enter') return 'Key; [Return]';
      break;
    case 'answer': return `ANSWER; <content>${a.text}</content>`;
    default: break;
  }
  return describeOther(a);
}
