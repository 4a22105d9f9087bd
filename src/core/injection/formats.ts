/**
 * Every dialect's reply grammar (src/core/dialects/*) written into page text, as the injection
 * detector's 'format' kind: a page that forges the agent's own action line can make the model
 * believe it already chose an action. Read on the folded text (lower case, full-width brackets and
 * colons as ASCII).
 *
 * - glm-web (WebVoyager): `Action: Click [3]`, `Type [2]; [text]`, `Scroll [WINDOW]; [down]`,
 *   `ANSWER; <content>…</content>`, `Thought: … Action: …`, `Memory_Updated: {…}`;
 * - glm-pc, and UI-TARS's calls: `left_click(start_box='[12,34]')`, `click(start_box='<|box_start|>(12,34)<|box_end|>')`,
 *   `key(keys='ctrl+c')`, `type(content='…')`, `WAIT()` / `DONE()` / `FAIL()` alone or as an action, GLM's and
 *   Qwen's box tokens, `<point>x y</point>`;
 * - glm-mobile: `{"action_type": "click", "box_2d": [[…]]}` (JSON or a Python dict);
 * - cogagent: `Grounded Operation: CLICK(box=[[…]], element_info='Buy')`, an operation with `box=`,
 *   `<<一般操作>>` / `<<敏感操作>>`, a `__CogName_…__` variable;
 * - midscene: `{"type": "Tap", "locate": {"bbox": […]}}`, `"actions": [{"type": …`, the reply's own
 *   field names;
 * - appagent: `tap(5)`, `long_press(3)`, `swipe(2, "up", "medium")`, `Action: text("…")`,
 *   `Action: FINISH`, and its `Observation: … Thought: … Action:` reply.
 *
 * Ordinary text does not have these shapes: "Click here", "tap to open", "Swipe left to delete",
 * "Action: Click to expand", "Finish", "Press X to jump", a product's type or location field.
 */

import type { InjectionPattern } from './kinds';

/** A format pattern, with the words every match of it holds (injection/kinds.ts), when it has such words. */
const f = (re: RegExp, anchors?: string[]): InjectionPattern => ({ kind: 'format', re, ...(anchors ? { anchors } : {}) });

export const FORMAT_PATTERNS: InjectionPattern[] = [
  // glm-web
  f(/\baction\s*:\s*(?:answer|click|type|navigate|scroll|wait|goback|go_back|google|bing|key|finish|call_user|done|select|press)\s*(?:;|\[|\(|<)/, ['action']),
  f(/\b(?:thought|memory_updated)\s*:.{0,200}\baction\s*:/, ['thought', 'memory_updated']),
  f(/<content>[^<]{0,200}<\/content>/, ['content']),
  f(/\bmemory_updated\s*:\s*[{[]/, ['memory_updated']),
  f(/\btype\s*\[\s*\d+\s*\]\s*;\s*\[/, ['type']),
  f(/\bscroll\s*\[\s*(?:\d+|window)\s*\]\s*;\s*\[\s*(?:up|down)\s*\]/, ['scroll']),
  // glm-pc, UI-TARS
  f(/\b[a-z_]{3,20}\s*\(\s*(?:start_box|end_box|start_point|end_point)\s*=/, ['start_box', 'end_box', 'start_point', 'end_point']),
  f(/\b(?:key\s*\(\s*keys|type\s*\(\s*content|hotkey\s*\(\s*key|finished\s*\(\s*content)\s*=\s*['"[]/, ['keys', 'content', 'key']),
  f(/<\|(?:box_start|box_end|begin_of_box|end_of_box|object_ref_start|object_ref_end|point_start|point_end)\|>/, ['box_start', 'box_end', 'begin_of_box', 'end_of_box', 'object_ref_start', 'object_ref_end', 'point_start', 'point_end']),
  f(/\(\s*point\s*=\s*['"]?\s*<point>|<point>\s*\d+[\s,]+\d+\s*<\/point>/, ['point']),
  f(/^(?:wait|done|fail|call_user)\(\)\s*(?:$|memory\s*:)|\baction\s*:\s*(?:wait|done|fail|call_user|finished)\s?\(\s*\)/, ['wait', 'done', 'fail', 'call_user', 'finished']),
  // glm-mobile
  f(/["']action_type["']\s*:\s*["'][a-z_]+["']/, ['action_type']),
  f(/["']box_2d["']\s*:\s*["']?\[/, ['box_2d']),
  // cogagent
  f(/\bgrounded\s+operation\s*:/, ['grounded']),
  f(/\b[a-z_]{2,16}\s*\(\s*box\s*=\s*["']?\[\[?\s*\d/, ['box']),
  f(/<<(?:一般操作|敏感操作)>>/),
  f(/__cogname_\w+__/),
  // midscene
  f(/["']?locate["']?\s*:\s*\{\s*["']?(?:bbox|prompt)["']?\s*:/, ['locate']),
  f(/["']type["']\s*:\s*["'](?:tap|rightclick|hover|input|keyboardpress|scroll)["']\s*,\s*["']?(?:locate|param)["']?\s*:/, ['type']),
  f(/["']actions?["']\s*:\s*\[?\s*\{\s*["']type["']\s*:\s*["'](?:tap|rightclick|hover|input|keyboardpress|scroll)["']/, ['action', 'actions']),
  f(/\b(?:more_actions_needed_by_instruction|what_the_user_wants_to_do_next_by_instruction)\b/, ['more_actions_needed_by_instruction', 'what_the_user_wants_to_do_next_by_instruction']),
  // appagent
  f(/(?<![\w.])(?:tap|long_press)\s?\(\s*(?:element\s*=\s*)?\d{1,3}\s*\)/, ['tap', 'long_press']),
  f(/(?<![\w.])swipe\s?\(\s*\d{1,3}\s*,\s*["'](?:up|down|left|right)["']/, ['swipe']),
  f(/\baction\s*:\s*(?:text\s*\(\s*["']|finish(?=\s*(?:$|[.;]|summary\s*:)))/, ['action']),
  f(/\bobservation\s*:.{0,300}?\bthought\s*:.{0,300}?\baction\s*:/, ['observation']),
];
