/**
 * The judges of a finished task (docs: DIALECTS.md, "Judging runs"): the requests they send and
 * readers for their replies. Pure; scripts/batch/judge.ts sends the requests with the `openai`
 * package (each request is `{ messages, temperature, max_tokens }`, to spread into
 * `chat.completions.create` with the model).
 *
 * - WebVoyager's automatic evaluation (evaluation/auto_eval.py): one request with the task, the
 *   agent's answer ("Result Response") and the last screenshots; a reply containing
 *   'NOT SUCCESS' is a failure, else 'SUCCESS' a success, else unreadable. Temperature 0 and
 *   at most 1000 tokens, as auto_eval.py asks (its `seed` is left out: not every server takes it).
 *   The user message says how many screenshots it really carries (auto_eval.py writes its
 *   maximum there even when fewer exist).
 * - Online-Mind2Web's WebJudge, in three stages: (1) the task's key points, text only; (2) each
 *   screenshot scored 1–5 for how much it shows about those key points, one request each, those
 *   scoring 3 or more kept; (3) the outcome from the task, the key points, the kept screenshots
 *   with their stage-2 reasoning, the action history and the final response: `Status: "success"`
 *   or `Status: "failure"`.
 * The prompts are written for this project, keeping the rules the two judges publish.
 */

export type JudgePart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail: 'high' } };

export type JudgeMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | JudgePart[] };

/** One chat-completions request, without the model (the caller adds it). */
export interface JudgeRequest {
  messages: JudgeMessage[];
  temperature: 0;
  max_tokens: number;
}

const image = (url: string): JudgePart => ({ type: 'image_url', image_url: { url, detail: 'high' } });
const request = (system: string, user: string | JudgePart[], maxTokens: number): JudgeRequest => ({
  messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
  temperature: 0,
  max_tokens: maxTokens,
});

// --- WebVoyager ---

export const WEBVOYAGER_JUDGE_SYSTEM = `You are judging whether a web agent accomplished a task on a website. You are given three things:

1. The web task instruction: what a person asked to have done on a website, in plain language. It may ask to search, check facts, compare prices, check availability, or anything else a site such as Amazon, Apple, ArXiv, BBC News or Booking offers.

2. The result screenshots: pictures of the browser at the end of the agent's work or on its way there. They are the visual evidence of what the agent did.

3. The result response: the text the agent gave back when it stopped. It is its textual answer to the instruction.

Rules:
- You do not need to browse or act on any website yourself.
- Do not assume anything that the screenshots do not show when you compare them with the instruction.
- Compare the instruction with what the screenshots and the response show, and decide whether what was done matches what was asked.
- An instruction may ask for more than one thing, for example to find a garage and to summarise its reviews. Every part must be met: missing any one of them, such as giving no summary, means the task was not accomplished.
- The screenshots are authentic. The response was written by a language model at the end of browsing and may disagree with them. When the response contradicts the screenshots, the screenshots win. When the response states something the screenshots do not show, believe the response.

First explain how you reach your judgement, then give a definitive verdict: either 'SUCCESS' or 'NOT SUCCESS'.`;

/** WebVoyager's judge request: the task, the answer and the screenshots (data URLs, oldest first). */
export function webVoyagerJudgeRequest(task: string, answer: string, screenshots: string[]): JudgeRequest {
  const text = `TASK: ${task}\nResult Response: ${answer}\n${screenshots.length} screenshots at the end: `;
  return request(WEBVOYAGER_JUDGE_SYSTEM, [
    { type: 'text', text },
    ...screenshots.map(image),
    { type: 'text', text: 'Your verdict:\n' },
  ], 1000);
}

/** auto_eval.py's reading: 'NOT SUCCESS' anywhere is a failure, else 'SUCCESS' a success, else null (unreadable). */
export function readWebVoyagerVerdict(text: string): boolean | null {
  if (text.includes('NOT SUCCESS')) return false;
  if (text.includes('SUCCESS')) return true;
  return null;
}

// --- Online-Mind2Web (WebJudge) ---

export const KEY_POINTS_SYSTEM = `You break a web task down into its key points: the requirements the task states explicitly, which a successful run must meet.

Instructions:
1. Read the task carefully.
2. List every requirement the task states explicitly as a point of its own: an item or place to find, a value or range, a filter, a sort order, a date, an action to complete.
   - Keep the task's own words. Do not infer or add requirements the task does not state.
   - Words that together make one condition stay together (for example "cheapest direct flight" or "rated 4 stars or more").

Reply with:
Key Points: a numbered list, one key point a line.`;

/** Stage 1: the task's key points (text only). */
export function keyPointsRequest(task: string): JudgeRequest {
  return request(KEY_POINTS_SYSTEM, `Task: ${task}`, 800);
}

/** The key points of a stage-1 reply: what follows its "Key Points" heading, else the whole reply. */
export function readKeyPoints(reply: string): string {
  const m = /key\s*points?\s*[*_#]*\s*[:：]?\s*[*_#]*/i.exec(reply);
  const rest = m ? reply.slice(m.index + m[0].length) : reply;
  return rest.trim();
}

export const SCREENSHOT_SCORE_SYSTEM = `You look at one screenshot taken during a web agent's run and judge how much it shows about whether the task was done.

You are given the task, its key points and the screenshot. Decide whether the screenshot shows something needed to judge the outcome: a key point met or missed (a filter applied, a choice made, a confirmation shown), or the information the task asks for.

Score it from 1 to 5:
1: nothing relevant to the key points.
2: barely relevant; no real evidence.
3: some relevant evidence, though incomplete.
4: clear evidence about some key points.
5: clear, decisive evidence about the key points or the task's result.

Reply in exactly this form:
Reasoning: what the screenshot shows and how it bears on the key points.
Score: a number from 1 to 5.`;

/** Stage 2: one screenshot (a data URL) scored for relevance to the key points. */
export function screenshotScoreRequest(task: string, keyPoints: string, screenshot: string): JudgeRequest {
  return request(SCREENSHOT_SCORE_SYSTEM, [
    { type: 'text', text: `Task: ${task}\n\nKey points:\n${keyPoints}\n\nThe screenshot:` },
    image(screenshot),
  ], 800);
}

/** Screenshots scoring this or more are kept for stage 3 (WebJudge's threshold). */
export const KEEP_SCORE = 3;

/** A stage-2 reply: its score (null when it gives no score 1–5) and its reasoning. */
export function readScore(reply: string): { score: number | null; reasoning: string } {
  const matches = [...reply.matchAll(/\bscore\b[\s*_#:："'=]*([1-5])(?![\d.])/gi)];
  const last = matches.at(-1);
  const before = last ? reply.slice(0, last.index) : reply;
  const reasoning = before.replace(/^[\s*_#]*reasoning[\s*_#]*[:：]?[\s*_#]*/i, '').replace(/[\s*_#]+$/, '').trim();
  return { score: last ? Number(last[1]) : null, reasoning: reasoning || reply.trim() };
}

export const OUTCOME_SYSTEM = `You decide whether a web agent accomplished a task on a website.

You are given the task, its key points, the agent's action history, its final response, and the screenshots of its run that were judged relevant, each after a note on what it shows.

Rules:
- Every key point must be met for the task to count as done. A result that meets the task only in part is a failure.
- Filters, sort orders, ranges and options the task names must have been applied with the site's own controls, as the actions or screenshots show; a result that merely happens to fit them does not count.
- The actions must match the task exactly: the right item, place, date, amount and quantity.
- The screenshots are the evidence. Do not accept a claim of the actions or of the final response that the screenshots contradict, and do not assume anything that is not shown.

Explain your reasoning, then end with one line, either
Status: "success"
or
Status: "failure"`;

export interface KeptScreenshot {
  /** a data URL */
  url: string;
  /** what stage 2 said about it */
  reasoning: string;
}

/** Stage 3: the outcome from the task, key points, kept screenshots, action history and final response. */
export function outcomeRequest(task: string, keyPoints: string, kept: KeptScreenshot[], actions: string[], answer: string | null): JudgeRequest {
  const history = actions.length ? actions.map((a, i) => `${i + 1}. ${a}`).join('\n') : '(none)';
  const parts: JudgePart[] = [{
    type: 'text',
    text: `Task: ${task}\n\nKey points:\n${keyPoints}\n\nAction history:\n${history}\n\nFinal response: ${answer ?? '(none)'}\n\n${kept.length} screenshots judged relevant${kept.length ? ', each after its note:' : '.'}`,
  }];
  kept.forEach((k, i) => {
    parts.push({ type: 'text', text: `Screenshot ${i + 1}: ${k.reasoning}` });
    parts.push(image(k.url));
  });
  return request(OUTCOME_SYSTEM, parts, 1500);
}

/** A stage-3 reply's status: true for success, false for failure, null when it names neither. */
export function readOutcome(reply: string): boolean | null {
  const matches = [...reply.matchAll(/\bstatus\b[\s*_#:："'`]*(success(?:ful)?|fail(?:ure|ed)?)\b/gi)];
  const last = matches.at(-1);
  if (!last) return null;
  return last[1].toLowerCase().startsWith('success');
}

export interface ScoredScreenshot {
  name: string;
  /** 0 when the reply gave no score */
  score: number;
  missing: boolean;
  reasoning: string;
}

/** The Mind2Web verdict's text: key points, each screenshot's score (a missing score said as such), the outcome reply. */
export function mind2webVerdictText(keyPoints: string, scored: ScoredScreenshot[], outcome: string): string {
  const kept = scored.filter((s) => s.score >= KEEP_SCORE).length;
  const lines = scored.map((s) => `- ${s.name}: ${s.missing ? '0 (the reply gave no score 1–5; counted as 0)' : s.score}`);
  return [
    `Key points:\n${keyPoints}`,
    `Screenshots scored (kept when ${KEEP_SCORE} or more: ${kept} of ${scored.length}):\n${lines.join('\n') || '(none)'}`,
    `Outcome:\n${outcome.trim()}`,
  ].join('\n\n');
}
