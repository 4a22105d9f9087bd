/**
 * Instructions aimed at the agent: page text that addresses an AI ("ignore previous instructions",
 * "you are now an AI agent", "忽略之前的指令", a forged "Action: ANSWER; …") is found here, without a
 * model call. The run then asks the person before its next action, even in auto mode (reduce.ts);
 * the model's text is not changed.
 *
 * Pure. The input is the text the model reads: the element list's texts and the page title.
 * Text is normalised first (fold-text.ts, as the guards' phrases are: NFKC, full-width letters to
 * ASCII; zero-width, soft-hyphen and bidi characters dropped; Cyrillic/Greek look-alike letters to
 * Latin; curly quotes straight; case and spacing folded; spaces between Chinese or Japanese
 * characters dropped), and letters spaced out one by one read as words.
 * Each text is read on its own: a phrase split across two elements is not joined.
 *
 * Look-alikes that must not trip it: text in code (`code` entries), a phrase quoted in a discussion
 * ("a prompt injection such as 'ignore previous instructions'…"), a phrase given as an example
 * ("for example, ignore previous instructions"), and ordinary interface text ("Ignore this field",
 * "Forget password?", "You are now signed in", "« Previous", "Instructions").
 */

import { foldText } from './fold-text';
import type { Translate } from './i18n';

export const INJECTION_KINDS = ['override', 'role', 'address', 'command', 'format', 'marker', 'secrecy'] as const;
export type InjectionKind = typeof INJECTION_KINDS[number];

/** where a text is: an element's label, "title", or the name of a run variable (a language-model prompt's part) */
export type InjectionPlace = number | 'title' | string;

export interface InjectionText {
  text: string;
  where: InjectionPlace;
  /** the text is code (in <code> / <pre>): never an instruction */
  code?: boolean;
}

export interface InjectionHit {
  /** the matched words, as normalised (at most 80 characters) */
  phrase: string;
  /** which kind of pattern matched */
  kind: InjectionKind;
  where: InjectionPlace;
}

/** Where a hit is, in the person's words. */
export function injectionPlace(where: InjectionPlace, t: Translate): string {
  if (where === 'title') return t('injWhereTitle');
  return typeof where === 'string' ? t('injWhereVariable', where) : t('injWhereElement', where);
}

/** Text as the patterns read it (fold-text.ts). */
export function normalizeForInjection(s: string): string {
  return foldText(s);
}

/** Letters spaced out one by one ("i g n o r e   p r e v i o u s"), at least 8 of them. */
const SPACED = /(?:^|[^\p{L}\p{N}])((?:\p{L}[ .\-_·]){7,}\p{L})(?![\p{L}\p{N}])/gu;
/** Key phrases with their spaces taken out, for spaced-out text. */
const SQUASHED = /(?:ignore|disregard|forget)(?:all|any)?(?:the|your)?(?:previous|prior|above|earlier|system)(?:instructions?|prompts?|rules)|youarenow(?:an?)?(?:ai|agent|assistant|dan)|systemprompt|newinstructions/;

const AI = String.raw`(?:ai|a\.i\.|llm|llms|gpt|chatgpt|claude|gemini|copilot|language models?|large language models?|bots?|chatbots?|agents?|assistants?|ai agents?|ai assistants?|ai models?|web agents?|browser agents?|browsing agents?|autonomous agents?|automated agents?|ai systems?)`;
/** Names that only an AI answers to (no plain "agent" or "assistant": estate agents, shop assistants). */
const AI_STRICT = String.raw`(?:ai|a\.i\.|llm|gpt|chatgpt|claude|gemini|(?:large\s+)?language\s+model|ai\s+(?:agent|assistant|model|system|bot)|(?:web|browser|browsing|autonomous|automated)\s+agent)`;
/** After a name for an AI: the end, punctuation or words that go on about it ("an AI engineer" is not one). */
const AI_END = String.raw`(?=$|\s*[,.;:!?)"'—-]|\s+(?:and|that|who|which|with|named|called|designed|created|built|working|tasked|whose|now|in|for|by|from|operating|running|controlled|acting|reading|browsing|here|on|of)\b)`;
const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|original|initial|system|existing|former|old|all|any|every|your|the developer'?s?|the user'?s?)`;
const RULES = String.raw`(?:instructions?|prompts?|rules|directions|directives|guidelines|commands|orders|guidance|programming|constraints|system prompt|context|messages|tasks?)`;
const ZH_AI = '(?:ai|人工智能|智能体|智能代理|代理|助手|ai助手|机器人|大模型|语言模型|大语言模型|模型|llm|gpt|chatgpt)';
/** In Chinese: names only an AI answers to (no plain 代理 or 助手: resellers, shop assistants), not followed by more of a word. */
const ZH_AI_STRICT = '(?:ai(?:助手|代理|智能体|模型)?|人工智能(?:助手)?|智能体|智能代理|智能助手|大模型|语言模型|大语言模型|llm|gpt|chatgpt)(?![a-z\\u4e00-\\u9fff]|的话)|(?:ai|人工智能)(?=的话)';
const ZH_EARLIER = '(?:之前|以前|先前|上面|以上|上述|前面|此前|原来|原有|原先|原始|所有|全部|一切|刚才|系统)';
const ZH_RULES = '(?:指令|指示|提示词|提示|规则|命令|设定|约束|要求|任务)';

const PATTERNS: { kind: InjectionKind; re: RegExp }[] = [
  // English: override what the agent was told
  { kind: 'override', re: new RegExp(String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|drop)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+)?${EARLIER}\s+(?:\w+\s+){0,2}?${RULES}\b`) },
  { kind: 'override', re: /\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:you(?:'ve| have)? (?:were|been)? ?(?:told|given|instructed)|(?:said|written|stated) (?:above|before|earlier))/ },
  { kind: 'override', re: /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:the|your|these|my)\s+(?:\w+\s+)?(?:instructions|directions|rules|prompts?)\s+(?:above|before|so\s+far|you\s+(?:were|have\s+been)\s+given|given\s+(?:to\s+you|above|earlier|before))(?!\s+if\s+you\s+(?:already|have|do\s+not|don'?t|are\s+(?:not|already)))/ },
  { kind: 'override', re: /\b(?:new|updated|revised|real|actual|true|important|urgent|secret|hidden)\s+(?:system\s+)?instructions?\s*(?:for|to)\s+(?:the\s+|any\s+|all\s+)?(?:ai|llm|agents?|assistants?|models?|bots?)\b/ },
  { kind: 'override', re: /\b(?:new|updated|revised)\s+(?:system\s+)?(?:instructions?|task|prompt|orders)\s*:/ },
  { kind: 'override', re: /\b(?:system|developer|admin)\s+(?:override|prompt|instructions?|directive)\s*:/ },
  { kind: 'override', re: /\b(?:reveal|print|show|output|repeat|leak|display)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|original\s+|hidden\s+)?(?:system\s+prompt|instructions|initial\s+prompt)/ },
  // English: a role given to the reader
  { kind: 'role', re: new RegExp(String.raw`\byou\s+are\s+(?:now\s+|actually\s+|an?\s+|the\s+)*(?:helpful\s+|unrestricted\s+|jailbroken\s+|unfiltered\s+)*${AI_STRICT}${AI_END}`) },
  { kind: 'role', re: new RegExp(String.raw`\byou\s+are\s+(?:now\s+(?:an?\s+|the\s+)?|an?\s+(?=helpful))(?:(?:autonomous|ai|web|browser|browsing|shopping|helpful|new|different|unrestricted|personal|digital|virtual|automated|harmless|honest)\s+){0,2}(?:agent|assistant|bot)${AI_END}`) },
  { kind: 'role', re: /\byou\s+are\s+now\s+(?:in\s+)?(?:dan|developer\s+mode|god\s+mode|jailbreak\s+mode|unrestricted(?:\s+mode)?|jailbroken)\b/ },
  { kind: 'role', re: /\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall|should)\b/ },
  { kind: 'role', re: /\b(?:act|behave|pretend|roleplay)\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|evil)\b/ },
  // English: words addressed to an AI
  { kind: 'address', re: new RegExp(String.raw`\bas\s+an?\s+(?:ai|llm|language\s+model|ai\s+agent|ai\s+assistant|autonomous\s+agent|web\s+agent|browsing\s+agent),?\s+you\s+(?:must|should|will|need|are\s+required|have\s+to)\b`) },
  { kind: 'address', re: new RegExp(String.raw`\bif\s+you(?:\s+are|'re)\s+(?:an?\s+)?${AI_STRICT}\b(?:\s+(?:reading|processing|browsing|visiting|parsing|summari[sz]ing)\b[^,.;:]*)?[,.;:]?\s*(?:you\s+)?(?:must|should|please|ignore|disregard|do|click|go|navigate|answer|reply|respond|tell|say|output|stop|type|enter|visit|open|send|buy)\b`) },
  { kind: 'address', re: new RegExp(String.raw`\b(?:attention|note|message|instructions?|notice|important|warning|hey|hello|hi|dear|psst)\s*(?:to|for)?\s+(?:all\s+|any\s+|the\s+)?(?:ai|llm|gpt|automated|autonomous)\s*${AI}?\s*[:,!]`) },
  { kind: 'address', re: new RegExp(String.raw`\b(?:dear|attention|hey|to\s+(?:the|any|all))\s+(?:ai|llm|gpt|language\s+model|automated|autonomous|web|browsing|browser)?\s*(?:agents?|assistants?|models?|bots?)\s*[:,!]`) },
  { kind: 'address', re: /\b(?:(?:ai|llm|gpt)\s+(?:agents?|assistants?|models?|systems?|bots?)|llms|language\s+models)\s*,?\s*(?:must|should|are\s+(?:required|instructed|ordered)\s+to|need\s+to|have\s+to|will\s+now)\b/ },
  // English: what to do or answer next
  { kind: 'command', re: /\byour\s+(?:next|only|final|immediate|first)\s+(?:action|answer|response|reply|output|step|move|task)\s+(?:must|should|shall|will|has\s+to)\s+be\b/ },
  { kind: 'command', re: /\b(?:respond|reply|answer)\s+(?:only\s+|exactly\s+|solely\s+)with\b/ },
  { kind: 'command', re: /\b(?:respond|reply|answer|output|say|print)\s+(?:with\s+)?(?:only\s+|exactly\s+)?(?:the\s+(?:word|phrase|text)\s+)?"?(?:pwned|hacked|i have been pwned)\b/ },
  { kind: 'command', re: /\b(?:stop|abandon|drop|abort|forget)\s+your\s+(?:current\s+|original\s+)?(?:task|mission|goal)(?=\s*(?:[,.;:!]|$)|\s+(?:and|instead|now|immediately)\b)/ },
  { kind: 'command', re: /\b(?:instead|immediately|now),?\s+(?:you\s+must\s+)?(?:navigate|go)\s+to\s+(?:https?:\/\/|www\.)/ },
  { kind: 'command', re: /\bthe\s+user\s+(?:has\s+)?(?:authori[sz]ed|pre-?approved|wants\s+you\s+to|asked\s+you\s+to|instructs\s+you\s+to)\b/ },
  // English: secrecy towards the person
  { kind: 'secrecy', re: /\b(?:do\s+not|don'?t|never)\s+(?:(?:tell|inform|alert|notify|mention\s+(?:this\s+)?to)\s+(?:the\s+)?(?:user|human|person|operator)\b(?!'s)|let\s+(?:the\s+)?(?:user|human|person|operator)\s+(?:know|see|notice|find\s+out)\b)/ },
  { kind: 'secrecy', re: /\bwithout\s+(?:telling|asking|informing|alerting|notifying)\s+(?:the\s+)?(?:user|human|operator)\b/ },
  // The agent's own reply format, and chat-template markers
  { kind: 'format', re: /\baction\s*:\s*(?:answer|click|type|navigate|scroll|wait|goback|go_back|google|bing|key|finish|call_user|done|select|press)\s*(?:;|\[|\(|<)/ },
  { kind: 'format', re: /\b(?:thought|memory_updated)\s*:.{0,200}\baction\s*:/ },
  { kind: 'format', re: /<content>[^<]{0,200}<\/content>/ },
  { kind: 'marker', re: /<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>/ },
  { kind: 'marker', re: /\[\/?inst\]|<<\/?sys>>|<\/?(?:system|system-prompt|instructions?)>|\[\/?(?:system|system message)\]/ },
  { kind: 'marker', re: /(?:^|\s)#{2,}\s*(?:system|instruction|instructions|new instructions)\s*:?(?:\s|$)/ },
  { kind: 'marker', re: /\b(?:begin|end|start)\s+(?:of\s+)?(?:system\s+prompt|new\s+instructions|hidden\s+instructions)\b/ },
  // Chinese
  { kind: 'override', re: new RegExp(`(?:忽略|无视|忽视|忘记|忘掉|不要理会|别管|抛开|放弃|跳过|覆盖)(?:掉)?(?:你)?(?:的)?${ZH_EARLIER}[^。！？!?\\n]{0,8}?${ZH_RULES}`) },
  { kind: 'override', re: new RegExp(`(?:新的|最新的|更新的|真正的|重要的?)${ZH_RULES}\\s*[:：]`) },
  { kind: 'override', re: new RegExp(`新${ZH_RULES}\\s*[:：]`) },
  { kind: 'override', re: /系统(?:提示词|指令)\s*[:：]|(?:输出|显示|泄露|打印|重复|告诉我)(?:你的|一下)?(?:系统提示|初始提示|原始指令)/ },
  { kind: 'role', re: new RegExp(`(?:你现在是|现在你是|你已经是|你将扮演|你现在扮演|扮演)(?:一个|一名|一位)?[^。！？\\n]{0,6}?(?:${ZH_AI_STRICT})`) },
  { kind: 'role', re: /从现在(?:开始|起)\s*[,，]?\s*你(?:是|要|必须|将|只能|应该)/ },
  { kind: 'role', re: /(?:你现在|现在你)(?:处于|进入)?(?:开发者|越狱|无限制|上帝)模式/ },
  { kind: 'address', re: new RegExp(`作为(?:一个|一名|一位)?${ZH_AI}\\s*[,，]?\\s*你(?:必须|应该|需要|要|只能|得)`) },
  { kind: 'address', re: new RegExp(`(?:如果你是|假如你是|若你是)(?:一个|一名)?(?:${ZH_AI_STRICT})`) },
  { kind: 'address', re: new RegExp(`(?:致|给|写给|提醒|通知|注意)(?:所有|各位|任何)?${ZH_AI}(?:们)?\\s*[:：,，!！]`) },
  { kind: 'command', re: /你的下一(?:步|个)(?:操作|动作|行动|回答|回复)?(?:必须|应该|应当|只能)(?:是)?/ },
  { kind: 'command', re: /(?:只|仅)(?:需|能|可以)?(?:回答|回复|输出)\s*[:：]?\s*["「]/ },
  { kind: 'command', re: /(?:停止|放弃|取消)(?:你的|当前的?|原来的)(?:任务|目标)/ },
  { kind: 'secrecy', re: /(?:不要|别|不得|切勿)(?:告诉|通知|提醒|让)(?:用户|使用者|人类)/ },
  // German, French, Spanish, Japanese
  { kind: 'override', re: /\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte)\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen|vorigen|früheren|deine|ihre)\s+(?:\w+\s+)?(?:anweisungen|instruktionen|regeln|befehle|vorgaben)\b/ },
  { kind: 'override', re: /\b(?:ignore[zr]?|oublie[zr]?)\s+(?:toutes\s+|tout\s+)?(?:les|tes|vos)\s+(?:\w+\s+)?(?:instructions|consignes|règles|directives)\b/ },
  { kind: 'override', re: /\b(?:ignora|ignore|olvida|olvide|ignorad)\s+(?:todas\s+)?(?:las|tus|sus)\s+(?:\w+\s+)?(?:instrucciones|reglas|órdenes|indicaciones)\b/ },
  { kind: 'override', re: /(?:以前|これまで|上記|前|先|すべて)の(?:すべての|全ての)?(?:指示|命令|ルール|プロンプト)を(?:すべて|全て)?(?:無視|忘れ)/ },
];

/** "such as", "for example": the phrase is being shown, not said. */
const EXAMPLE_BEFORE = /(?:such as|for example|for instance|e\.g\.|like|called|known as|phrases? like|例如|比如|诸如|像|像是|称为|叫做|类似|例えば|など)\s*[:：,，]?\s*["'`「『]?\s*$/;
/** A discussion of attacks: a quoted phrase in such text is a quotation. */
const DISCUSSION = /prompt injection|injection attacks?|jailbreak|attack|exploit|example|red[- ]team|security|vulnerab|phrases? like|提示注入|注入攻击|越狱|攻击|例如|比如|安全|漏洞|プロンプトインジェクション/;

/** The match lies inside quotes or backticks. */
function quoted(text: string, start: number, end: number): boolean {
  const spans = /"[^"]{1,400}"|`[^`]{1,400}`|「[^」]{1,400}」|『[^』]{1,400}』|«[^»]{1,400}»|(?<![\p{L}\p{N}])'[^']{1,400}'(?![\p{L}\p{N}])/gu;
  for (const m of text.matchAll(spans)) {
    if (m.index! <= start && m.index! + m[0].length >= end) return true;
  }
  return false;
}

/** Words that show chat-template markers are being described, not used. */
const ABOUT_MARKERS = /\b(?:tokens?|tags?|templates?|syntax|formats?|wraps?)\b|标记|模板|格式/;

/** Hits in one text (already normalised), look-alikes left out. */
function hitsIn(text: string): { phrase: string; kind: InjectionKind }[] {
  const out: { phrase: string; kind: InjectionKind }[] = [];
  for (const { kind, re } of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (EXAMPLE_BEFORE.test(text.slice(Math.max(0, start - 40), start))) continue;
    if (quoted(text, start, end) && DISCUSSION.test(text)) continue;
    if (kind === 'marker' && ABOUT_MARKERS.test(text)) continue;
    out.push({ phrase: m[0].trim().slice(0, 80), kind });
  }
  if (!out.length) {
    for (const m of text.matchAll(SPACED)) {
      const squashed = m[1].replace(/[ .\-_·]/g, '');
      const hit = SQUASHED.exec(squashed);
      if (hit) return [{ phrase: hit[0].slice(0, 80), kind: 'override' }];
    }
  }
  return out;
}

/** Instructions aimed at the agent in the texts the model will read: one hit per text at most. */
export function detectInjection(texts: InjectionText[]): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const t of texts) {
    if (t.code || !t.text) continue;
    const found = hitsIn(normalizeForInjection(t.text));
    if (found.length) hits.push({ ...found[0], where: t.where });
  }
  return hits;
}

/** What the page shows the model: the title and each element's text (code elements marked). */
export function pageTexts(title: string, marks: { label: number; tag: string; text: string }[]): InjectionText[] {
  return [
    { text: title, where: 'title' as const },
    ...marks.map((m) => ({ text: m.text, where: m.label, code: m.tag === 'code' || m.tag === 'pre' })),
  ];
}
