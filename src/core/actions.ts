/**
 * The one action model every dialect maps into. A dialect's parser turns a
 * model reply into one of these; the background executes them.
 */
export type ScrollTarget = { kind: 'window' } | { kind: 'element'; label: number };

export type Action =
  | { type: 'click'; label: number }
  | { type: 'type'; label: number; text: string }
  | { type: 'scroll'; target: ScrollTarget; direction: 'up' | 'down' }
  | { type: 'wait' }
  | { type: 'goBack' }
  | { type: 'search' } // "Bing" (older alias "Google"): open the search start page
  | { type: 'key'; key: 'Enter' }
  | { type: 'answer'; text: string };

export type ActionType = Action['type'];

/** What a parsed reply yields. */
export interface ParsedStep {
  thought: string;
  action: Action;
  /** The action exactly as the model wrote it (after unwrapping), for history. */
  actionText: string;
  /** Memory object from Memory_Updated; null when the reply had no usable memory. */
  memory: Record<string, unknown> | null;
  /** Notes for the next observation, e.g. "memory was not valid JSON; kept the previous memory". */
  notes: string[];
  /** Reasoning (think block or reasoning_content), for display only. */
  reasoning: string | null;
}

export interface ParseError {
  error: string;
  /** Reasoning, if any was found, for display. */
  reasoning: string | null;
}

export function isParseError(x: ParsedStep | ParseError): x is ParseError {
  return (x as ParseError).error !== undefined;
}

/** The label an action targets (Click, Type, Scroll [N]), or null (Scroll WINDOW, Wait, GoBack, …). */
export function labelOf(a: Action): number | null {
  if (a.type === 'click' || a.type === 'type') return a.label;
  if (a.type === 'scroll' && a.target.kind === 'element') return a.target.label;
  return null;
}

/** "Click [12]" etc.: the canonical written form of an action in the GLM web grammar. */
export function describeAction(a: Action): string {
  switch (a.type) {
    case 'click': return `Click [${a.label}]`;
    case 'type': return `Type [${a.label}]; [${a.text}]`;
    case 'scroll': return `Scroll [${a.target.kind === 'window' ? 'WINDOW' : a.target.label}]; [${a.direction}]`;
    case 'wait': return 'Wait';
    case 'goBack': return 'GoBack';
    case 'search': return 'Bing';
    case 'key': return 'Key; [Return]';
    case 'answer': return `ANSWER; <content>${a.text}</content>`;
  }
}
