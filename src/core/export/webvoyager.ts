/**
 * A trace -> WebVoyager's interact_messages.json (the message list its run.py saves and its
 * auto_eval.py reads), so WebVoyager's own evaluation tooling can read our runs.
 *
 * Mapping (checked against the WebVoyager example runs in test/fixtures/webvoyager/):
 * - [0] system: a short note on where the run comes from. Our model did not get WebVoyager's
 *   system prompt; the prompt it really got each step is in trace.json (steps[i].request.promptText).
 * - per step i, a user message rebuilt in WebVoyager's wording from the step's element list:
 *   step 0: "Now given a task: {task}  Please interact with {startUrl} and get the answer. \n
 *   Observation: please analyze the attached screenshot ... textual information.\n{elements}";
 *   later: "Observation:{note} please analyze ..." where {note} is what went wrong in the step
 *   before (its observation when that is not "Success"; WebVoyager's warn_obs), else empty.
 *   Elements as WebVoyager lists them: `[N]: <tag> "text";` for input/textarea/button, `[N]: "text";`
 *   otherwise, joined by tabs; whitespace collapsed, text cut at 200 characters, empty texts left
 *   out except for input/textarea/button. The task is put on one line (auto_eval.py's regex
 *   does not cross lines).
 *   Content: [{type:'text'}, {type:'image_url', image_url:{url:'data:image/png;base64,{b64_img}'}}]
 *   (the placeholder the published runs use; the image itself is webvoyager/screenshot{i+1}.png).
 *   As WebVoyager clips its context (3 images), only the last 3 user messages keep that form;
 *   older ones are the string "{text before 'Observation:'}Observation: A screenshot and some
 *   texts. (Omitted in context.)".
 * - per step i, an assistant message: the model's raw reply (passwords already masked in the
 *   trace), or "Thought: …\n\nAction: …" when there is none (a take-over step). An answer step
 *   whose raw reply auto_eval.py would not read as this answer (GLM's <|begin_of_box|> and
 *   <content> wrappers) gets WebVoyager's form "Thought: {thought}\n\nAction: ANSWER; {answer}",
 *   so the last assistant message carries the answer where auto_eval.py looks for it.
 */
import type { Trace, TraceStep } from '../trace';

export interface WvMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;
}

export const WV_IMAGE_PLACEHOLDER = 'data:image/png;base64,{b64_img}';
export const WV_OMITTED = 'Observation: A screenshot and some texts. (Omitted in context.)';
/** how many user messages keep their image, as in WebVoyager's clipped context */
export const WV_MAX_IMAGES = 3;
const OBS_TEXT = "please analyze the attached screenshot and give the Thought and Action. I've provided the tag name of each element and the text it contains (if text exists). Note that <textarea> or <input> may be textbox, but not exactly. Please focus more on the screenshot and then refer to the textual information.\n";
const TAGGED = new Set(['input', 'textarea', 'button']);

/** The element list in WebVoyager's format. */
export function wvElements(elements: TraceStep['elements']): string {
  const out: string[] = [];
  for (const e of elements) {
    const tag = e.tag.toLowerCase();
    const text = e.text.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (TAGGED.has(tag)) out.push(`[${e.label}]: <${tag}> "${text}";`);
    else if (text) out.push(`[${e.label}]: "${text}";`);
  }
  return out.join('\t');
}

/** What auto_eval.py reads as the answer of an assistant message, or null (it finds none). */
export function wvAnswerOf(content: string): string | null {
  if (!content.includes('Action: ANSWER')) return null;
  const m = /ANSWER[; ]+\[?(.[^\]]*)\]?/.exec(content);
  return m ? m[1].trim() : null;
}

function userText(trace: Trace, i: number): string {
  const elements = wvElements(trace.steps[i].elements);
  if (i === 0) {
    const task = trace.run.task.replace(/\s*\n\s*/g, ' ');
    return `Now given a task: ${task}  Please interact with ${trace.run.startUrl} and get the answer. \nObservation: ${OBS_TEXT}${elements}`;
  }
  const prev = trace.steps[i - 1].observation;
  const note = prev && prev !== 'Success' ? prev : '';
  return `Observation:${note} ${OBS_TEXT}${elements}`;
}

function assistantText(s: TraceStep): string {
  const fallback = (action: string) => `Thought: ${s.thought}\n\nAction: ${action}`;
  if (s.action.type === 'answer') {
    const answer = s.action.text.trim();
    return wvAnswerOf(s.reply.raw) === answer ? s.reply.raw : fallback(`ANSWER; ${answer}`);
  }
  return s.reply.raw || fallback(s.actionText);
}

export function toInteractMessages(trace: Trace): WvMessage[] {
  const messages: WvMessage[] = [{
    role: 'system',
    content: `This run was made by webagent, a browser extension, with the model ${trace.run.model} in the ${trace.run.dialect} dialect, and exported in WebVoyager's interact_messages.json shape. The user messages are rebuilt in WebVoyager's wording from each step's element list (the screenshots are screenshot1.png, screenshot2.png, ...); the prompt the model really got each step is in trace.json. The assistant messages are the model's replies.`,
  }];
  const n = trace.steps.length;
  trace.steps.forEach((s, i) => {
    const text = userText(trace, i);
    messages.push(i >= n - WV_MAX_IMAGES
      ? { role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: WV_IMAGE_PLACEHOLDER } }] }
      : { role: 'user', content: text.split('Observation:')[0].trim() + WV_OMITTED });
    messages.push({ role: 'assistant', content: assistantText(s) });
  });
  return messages;
}
