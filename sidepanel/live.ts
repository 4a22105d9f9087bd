/**
 * A model reply while it streams in, as the panel shows it: the thought so far (the part after
 * "Thought:" up to "Action:", or the raw text when there is no "Thought:" yet) and the reasoning
 * (the server's separate reasoning field and any <think>…</think> block in the text).
 */
export interface LiveReply { thought: string; reasoning: string }

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

export function liveReply(content: string, reasoning: string): LiveReply {
  let text = content;
  let think = '';
  const open = text.indexOf(THINK_OPEN);
  if (open >= 0) {
    const close = text.indexOf(THINK_CLOSE, open);
    think = close < 0 ? text.slice(open + THINK_OPEN.length).replace(/<[^>\s]*$/, '') : text.slice(open + THINK_OPEN.length, close);
    text = text.slice(0, open) + (close < 0 ? '' : text.slice(close + THINK_CLOSE.length));
  }
  // GLM-4.5V's answer and box tokens, and a tag cut in half by the stream, are not shown.
  text = text.replace(/<\/?answer>|<\|(?:begin|end)_of_box\|>/g, '').replace(/<[^>\s]*$/, '');
  let thought = text;
  const t = /Thought:\s*/i.exec(text);
  if (t) {
    thought = text.slice(t.index + t[0].length);
    const a = /Action:/i.exec(thought);
    if (a) thought = thought.slice(0, a.index);
    else {
      // "…\nAc": the next label is still arriving
      const nl = thought.lastIndexOf('\n');
      const tail = thought.slice(nl + 1).trim().toLowerCase();
      if (nl >= 0 && tail && 'action:'.startsWith(tail)) thought = thought.slice(0, nl);
    }
  } else if ('thought:'.startsWith(text.trim().toLowerCase())) {
    thought = ''; // "Thou…": the label itself is still arriving
  }
  return { thought: thought.trim(), reasoning: [reasoning.trim(), think.trim()].filter(Boolean).join('\n\n') };
}
