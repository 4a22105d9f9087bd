/**
 * Instructions aimed at the agent: page text that addresses an AI ("ignore previous instructions",
 * "you are now an AI agent", "忽略之前的指令", a forged "Action: ANSWER; …") is found here, without a
 * model call. The run then asks the person before its next action, even in auto mode (reduce.ts);
 * the model's text is not changed.
 *
 * Pure, regex based. The input is the text the model reads: the element list's texts and the page
 * title. Each text is read on its own (a phrase split across two elements is not joined) and gives
 * at most one hit, with its kind: override ("ignore previous instructions"), role ("you are now an
 * AI agent"), address ("attention AI agents:"), command ("your next action must be"), secrecy ("do
 * not tell the user"), format (an agent's action line), marker (chat-template tokens).
 *
 * Languages: English and Chinese (Simplified, and Traditional read as Simplified) here; German,
 * French, Spanish, Italian, Portuguese, Polish, Turkish, Russian, Japanese and Korean in
 * injection/languages.ts, each with override, role, address, command and secrecy forms. Formats:
 * every dialect's action grammar written into page text (glm-web's `Action: Click [3]`, glm-pc's
 * and UI-TARS's `left_click(start_box='[12,34]')`, glm-mobile's `"action_type": "click"`,
 * CogAgent's `Grounded Operation: CLICK(box=[[…]])`, Midscene's `{"type": "Tap", "locate": …}`,
 * AppAgent's `tap(5)` / `swipe(2, "up", "medium")` / `Action: FINISH`), in injection/formats.ts.
 *
 * Readings of a text (injection/fold.ts), tried in turn until one has a hit:
 * 1. folded: NFKC, full-width letters as ASCII; zero-width, soft-hyphen and bidi characters dropped;
 *    combining marks dropped (accents, and "zalgo" stacks; Japanese dakuten and the marks of other
 *    scripts stay); Cyrillic/Greek look-alike letters as Latin; curly quotes straight; case and
 *    spacing folded; spaces between Chinese or Japanese characters dropped; Traditional Chinese as
 *    Simplified. Patterns are written in plain spelling and folded the same way.
 * 2. for text with Cyrillic letters, the same with Cyrillic kept (Latin look-alikes inside a
 *    Cyrillic word read as Cyrillic): the Russian patterns;
 * 3. leetspeak read as letters, in words that mix letters with digits, "@" or "$" and then read as
 *    one of the detector's words ("1gn0r3 pr3v10us 1nstruct10ns");
 * 4. words cut into pieces put back together ("ig nore", "i.g.n.o.r.e", "I g n o r e  a l l");
 * 5. letters spaced out one by one, squashed, against a few key phrases.
 * Most patterns name words that every match holds (their anchors, injection/kinds.ts); a text
 * without them skips those patterns, which keeps the detector fast.
 *
 * Look-alikes that must not trip it (test/fixtures/injection/corpus.json, measured by
 * test/unit/injection-coverage.test.ts): text in code (`code` entries); a phrase quoted in a
 * discussion of attacks, in any of the languages ("a prompt injection such as 'ignore previous
 * instructions'…", a security advisory, «Игнорируй…» in a Russian article); an action line
 * quoted from an agent's log ('the agent replied: "Action: Click [3]"'); a phrase given as an
 * example ("for example, …", "par exemple", "например"); ordinary interface text in each language
 * ("Ignore this field", "Ignorer", "Anweisungen", "Инструкции", "Talimatlar", "You are now signed
 * in", "Du bist jetzt angemeldet", "이제 회원입니다", "Tap to continue", "Swipe left to delete",
 * "Press X to jump", "Action: Click to expand"); and leetspeak or codes in ordinary use ("h4x0r",
 * "l33t", "A1B2-C3D4").
 */

import { foldCyrillic, foldInjection, foldSource, hasCyrillic, rejoin, unleet } from './fold';
import { FORMAT_PATTERNS } from './formats';
import { CYRILLIC_PATTERNS, LANGUAGE_GROUPS } from './languages';
import type { InjectionKind, InjectionPattern } from './kinds';
import type { Translate } from '../i18n';

export { INJECTION_KINDS, type InjectionKind } from './kinds';

/** where a text is: an element's label, "title", or the name of a run variable (a language-model prompt's part) */
/**
 * Where a text the model reads is: an element's label (the element list), "title", the name of
 * a run variable (a value an action stored), or a place outside the element list: the page's own
 * text (a paragraph, a cell: its tag and start; an image's alt; a tooltip; an accessible name; in
 * a frame), its address, the site notes of an element, an attached file's name, the screenshot
 * (text drawn in a picture, found by the opt-in picture check: image-screen.ts).
 */
export type InjectionPlace = number | 'title' | string | PlaceOffList;

export type PlaceOffList =
  | { channel: 'text' | 'alt' | 'title' | 'aria-label'; tag: string; excerpt: string; frame?: string }
  | { channel: 'url' }
  | { channel: 'notes'; label: number }
  | { channel: 'file'; name: string }
  /** text drawn in the screenshot, found by the opt-in picture check (image-screen.ts): the words the model quoted */
  | { channel: 'image'; excerpt: string }
  /** words drawn in a picture on screen (an image, a canvas, a background image, a poster), read on this machine by OCR (picture-text.ts) */
  | { channel: 'picture'; tag: string; excerpt: string; frame?: string };

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
  if (typeof where === 'string') return t('injWhereVariable', where);
  if (typeof where === 'number') return t('injWhereElement', where);
  switch (where.channel) {
    case 'url': return t('injWhereUrl');
    case 'notes': return t('injWhereNotes', where.label);
    case 'file': return t('injWhereFile', where.name);
    case 'image': return t('injWhereImage');
    case 'picture': return where.frame ? t('injWhereInFrame', t('injWherePicture', where.tag, where.excerpt), where.frame) : t('injWherePicture', where.tag, where.excerpt);
    default: {
      const said = where.channel === 'text' ? t('injWhereText', where.tag, where.excerpt)
        : where.channel === 'alt' ? t('injWhereAlt')
          : where.channel === 'title' ? t('injWhereTooltip', where.tag) : t('injWhereName', where.tag);
      return where.frame ? t('injWhereInFrame', said, where.frame) : said;
    }
  }
}

/** Text as the patterns read it (injection/fold.ts). */
export function normalizeForInjection(s: string): string {
  return foldInjection(s);
}

/** Letters spaced out one by one ("i g n o r e   p r e v i o u s"), at least 8 of them. */
const SPACED = /(?:^|[^\p{L}\p{N}])((?:\p{L}[ .\-_·]){7,}\p{L})(?![\p{L}\p{N}])/gu;
/** Four Latin letters spaced out one by one: needed before SQUASHED can match (its phrases are Latin). */
const FOUR_SPACED = /(?<![a-z])[a-z][ .\-_·][a-z][ .\-_·][a-z][ .\-_·][a-z](?![a-z])/;
/** Key phrases with their spaces taken out, for spaced-out text. */
const SQUASHED = /(?:ignore|disregard|forget)(?:all|any)?(?:the|your)?(?:previous|prior|above|earlier|system)(?:instructions?|prompts?|rules)|youarenow(?:an?)?(?:ai|agent|assistant|dan)|systemprompt|newinstructions/;

const AI = String.raw`(?:ai|a\.i\.|llm|llms|gpt|chatgpt|claude|gemini|copilot|language models?|large language models?|bots?|chatbots?|agents?|assistants?|ai agents?|ai assistants?|ai models?|web agents?|browser agents?|browsing agents?|autonomous agents?|automated agents?|ai systems?)`;
/** Names that only an AI answers to (no plain "agent" or "assistant": estate agents, shop assistants). */
const AI_STRICT = String.raw`(?:ai|a\.i\.|llm|gpt|chatgpt|claude|gemini|(?:large\s+)?language\s+model|ai\s+(?:agent|assistant|model|system|bot)|(?:web|browser|browsing|autonomous|automated)\s+agent)`;
/** After a name for an AI: the end, punctuation or words that go on about it ("an AI engineer" is not one). */
const AI_END = String.raw`(?=$|\s*[,.;:!?)"'—-]|\s+(?:and|that|who|which|with|named|called|designed|created|built|working|tasked|whose|now|in|for|by|from|operating|running|controlled|acting|reading|browsing|here|on|of)\b)`;
const EARLIER = String.raw`(?:previous|prior|above|earlier|preceding|original|initial|system|existing|former|old|all|any|every|your|the developer'?s?|the user'?s?)`;
const RULES = String.raw`(?:instructions?|prompts?|rules|directions|directives|guidelines|commands|orders|guidance|programming|constraints|system prompt|context|messages|tasks?)`;
const ZH_AI = '(?:ai|人工智能|人工智慧|智能体|智能代理|代理|助手|助理|ai助手|ai助理|机器人|大模型|语言模型|大语言模型|模型|llm|gpt|chatgpt)';
/** In Chinese: names only an AI answers to (no plain 代理 or 助手: resellers, shop assistants), not followed by more of a word. */
const ZH_AI_STRICT = '(?:ai(?:助手|助理|代理|智能体|模型)?|人工智(?:能|慧)(?:助手|助理)?|智能体|智能代理|智能助手|智能助理|大模型|语言模型|大语言模型|llm|gpt|chatgpt)(?![a-z\\u4e00-\\u9fff]|的话)|(?:ai|人工智(?:能|慧))(?=的话)';
const ZH_EARLIER = '(?:之前|以前|先前|上面|以上|上述|前面|此前|原来|原有|原先|原始|所有|全部|一切|刚才|系统)';
const ZH_RULES = '(?:指令|指示|提示词|提示|规则|命令|设定|约束|要求|任务)';

/**
 * English. `anchors`: words every match holds (injection/kinds.ts); the two address patterns without
 * them can match a word run together with the next ("noteto ai:") and always run.
 */
const ENGLISH: InjectionPattern[] = [
  // English: override what the agent was told
  { kind: 'override', anchors: ['ignore', 'disregard', 'forget', 'override', 'bypass', 'discard', 'drop'], re: new RegExp(String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|drop)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+|its\s+)?${EARLIER}\s+(?:\w+\s+){0,2}?${RULES}\b`) },
  { kind: 'override', anchors: ['ignore', 'disregard', 'forget'], re: /\b(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:you(?:'ve| have)? (?:were|been)? ?(?:told|given|instructed)|(?:said|written|stated) (?:above|before|earlier))/ },
  { kind: 'override', anchors: ['ignore', 'disregard', 'forget'], re: /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:the|your|these|my)\s+(?:\w+\s+)?(?:instructions|directions|rules|prompts?)\s+(?:above|before|so\s+far|you\s+(?:were|have\s+been)\s+given|given\s+(?:to\s+you|above|earlier|before))(?!\s+if\s+you\s+(?:already|have|do\s+not|don'?t|are\s+(?:not|already)))/ },
  { kind: 'override', anchors: ['new', 'updated', 'revised', 'real', 'actual', 'true', 'important', 'urgent', 'secret', 'hidden'], re: /\b(?:new|updated|revised|real|actual|true|important|urgent|secret|hidden)\s+(?:system\s+)?instructions?\s*(?:for|to)\s+(?:the\s+|any\s+|all\s+)?(?:ai|llm|agents?|assistants?|models?|bots?)\b/ },
  { kind: 'override', anchors: ['new', 'updated', 'revised'], re: /\b(?:new|updated|revised)\s+(?:system\s+)?(?:instructions?|task|prompt|orders)\s*:/ },
  { kind: 'override', anchors: ['system', 'developer', 'admin'], re: /\b(?:system|developer|admin)\s+(?:override|prompt|instructions?|directive)\s*:/ },
  { kind: 'override', anchors: ['reveal', 'print', 'show', 'output', 'repeat', 'leak', 'display'], re: /\b(?:reveal|print|show|output|repeat|leak|display)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|original\s+|hidden\s+)?(?:system\s+prompt|instructions|initial\s+prompt)/ },
  // English: a role given to the reader
  { kind: 'role', anchors: ['you'], re: new RegExp(String.raw`\byou\s+are\s+(?:now\s+|actually\s+|an?\s+|the\s+)*(?:helpful\s+|unrestricted\s+|jailbroken\s+|unfiltered\s+)*${AI_STRICT}${AI_END}`) },
  { kind: 'role', anchors: ['you'], re: new RegExp(String.raw`\byou\s+are\s+(?:now\s+(?:an?\s+|the\s+)?|an?\s+(?=helpful))(?:(?:autonomous|ai|web|browser|browsing|shopping|helpful|new|different|unrestricted|personal|digital|virtual|automated|harmless|honest)\s+){0,2}(?:agent|assistant|bot)${AI_END}`) },
  { kind: 'role', anchors: ['you'], re: /\byou\s+are\s+now\s+(?:in\s+)?(?:dan|developer\s+mode|god\s+mode|jailbreak\s+mode|unrestricted(?:\s+mode)?|jailbroken)\b/ },
  { kind: 'role', anchors: ['from'], re: /\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall|should)\b/ },
  { kind: 'role', anchors: ['act', 'behave', 'pretend', 'roleplay'], re: /\b(?:act|behave|pretend|roleplay)\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|unfiltered|evil)\b/ },
  // English: words addressed to an AI
  { kind: 'address', anchors: ['as'], re: new RegExp(String.raw`\bas\s+an?\s+(?:ai|llm|language\s+model|ai\s+agent|ai\s+assistant|autonomous\s+agent|web\s+agent|browsing\s+agent),?\s+you\s+(?:must|should|will|need|are\s+required|have\s+to)\b`) },
  { kind: 'address', anchors: ['if'], re: new RegExp(String.raw`\bif\s+you(?:\s+are|'re)\s+(?:an?\s+)?${AI_STRICT}\b(?:\s+(?:reading|processing|browsing|visiting|parsing|summari[sz]ing)\b[^,.;:]*)?[,.;:]?\s*(?:you\s+)?(?:must|should|please|ignore|disregard|do|click|go|navigate|answer|reply|respond|tell|say|output|stop|type|enter|visit|open|send|buy)\b`) },
  { kind: 'address', re: new RegExp(String.raw`\b(?:attention|note|message|instructions?|notice|important|warning|hey|hello|hi|dear|psst)\s*(?:to|for)?\s+(?:all\s+|any\s+|the\s+)?(?:ai|llm|gpt|automated|autonomous)\s*${AI}?\s*[:,!]`) },
  { kind: 'address', anchors: ['dear', 'attention', 'hey', 'to'], re: new RegExp(String.raw`\b(?:dear|attention|hey|to\s+(?:the|any|all))\s+(?:ai|llm|gpt|language\s+model|automated|autonomous|web|browsing|browser)?\s*(?:agents?|assistants?|models?|bots?)\s*[:,!]`) },
  { kind: 'address', re: /\b(?:(?:ai|llm|gpt)\s+(?:agents?|assistants?|models?|systems?|bots?)|llms|language\s+models)\s*,?\s*(?:must|should|are\s+(?:required|instructed|ordered)\s+to|need\s+to|have\s+to|will\s+now)\b/ },
  // English: what to do or answer next
  { kind: 'command', anchors: ['your'], re: /\byour\s+(?:next|only|final|immediate|first)\s+(?:action|answer|response|reply|output|step|move|task)\s+(?:must|should|shall|will|has\s+to)\s+be\b/ },
  { kind: 'command', anchors: ['respond', 'reply', 'answer'], re: /\b(?:respond|reply|answer)\s+(?:only\s+|exactly\s+|solely\s+)with\b/ },
  { kind: 'command', anchors: ['respond', 'reply', 'answer', 'output', 'say', 'print'], re: /\b(?:respond|reply|answer|output|say|print)\s+(?:with\s+)?(?:only\s+|exactly\s+)?(?:the\s+(?:word|phrase|text)\s+)?"?(?:pwned|hacked|i have been pwned)\b/ },
  { kind: 'command', anchors: ['stop', 'abandon', 'drop', 'abort', 'forget'], re: /\b(?:stop|abandon|drop|abort|forget)\s+your\s+(?:current\s+|original\s+)?(?:task|mission|goal)(?=\s*(?:[,.;:!]|$)|\s+(?:and|instead|now|immediately)\b)/ },
  { kind: 'command', anchors: ['instead', 'immediately', 'now'], re: /\b(?:instead|immediately|now),?\s+(?:you\s+must\s+)?(?:navigate|go)\s+to\s+(?:https?:\/\/|www\.)/ },
  { kind: 'command', anchors: ['user'], re: /\bthe\s+user\s+(?:has\s+)?(?:authori[sz]ed|pre-?approved|wants\s+you\s+to|asked\s+you\s+to|instructs\s+you\s+to)\b/ },
  // English: secrecy towards the person
  { kind: 'secrecy', anchors: ['do', 'don', 'dont', 'never'], re: /\b(?:do\s+not|don'?t|never)\s+(?:(?:tell|inform|alert|notify|mention\s+(?:this\s+)?to)\s+(?:the\s+)?(?:user|human|person|operator)\b(?!'s)|let\s+(?:the\s+)?(?:user|human|person|operator)\s+(?:know|see|notice|find\s+out)\b)/ },
  { kind: 'secrecy', anchors: ['without'], re: /\bwithout\s+(?:telling|asking|informing|alerting|notifying)\s+(?:the\s+)?(?:user|human|operator)\b/ },
  // The agent's own reply format (every dialect's: injection/formats.ts), and chat-template markers
  ...FORMAT_PATTERNS,
  { kind: 'marker', anchors: ['im_start', 'im_end', 'system', 'user', 'assistant', 'endoftext', 'begin_of_text', 'start_header_id', 'end_header_id', 'eot_id'], re: /<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>/ },
  { kind: 'marker', anchors: ['inst', 'sys', 'system', 'instruction', 'instructions'], re: /\[\/?inst\]|<<\/?sys>>|<\/?(?:system|system-prompt|instructions?)>|\[\/?(?:system|system message)\]/ },
  { kind: 'marker', anchors: ['system', 'instruction', 'instructions', 'new'], re: /(?:^|\s)#{2,}\s*(?:system|instruction|instructions|new instructions)\s*:?(?:\s|$)/ },
  { kind: 'marker', anchors: ['begin', 'end', 'start'], re: /\b(?:begin|end|start)\s+(?:of\s+)?(?:system\s+prompt|new\s+instructions|hidden\s+instructions)\b/ },
];

/** Chinese (Traditional characters are read as Simplified: injection/fold.ts). */
const CHINESE: InjectionPattern[] = [
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
];

/** "such as", "for example", in each language: the phrase is being shown, not said. */
const EXAMPLE_BEFORE = String.raw`(?:such as|for example|for instance|e\.g\.|like|called|known as|phrases? like|the (?:phrase|string|sentence|payload)|zum beispiel|z\. ?b\.|beispielsweise|wie etwa|sogenannte[nr]?|par exemple|tels? que|telles? que|comme|por ejemplo|tales como|ad esempio|per esempio|come|por exemplo|tais como|como|na przykład|np\.|takie jak|tzw\.|örneğin|mesela|например|к примеру|такие как|вроде|так называем\p{L}*|예를 들어|예컨대|예:|例如|比如|诸如|像|像是|称为|叫做|类似|例えば|など)\s*[:：,，]?\s*["'\x60「『«]?\s*$`;
/** A discussion of attacks, in each language: a quoted phrase in such text is a quotation. */
const DISCUSSION = String.raw`prompt injection|injection|jailbreak|attack|exploit|example|red[- ]team|security|vulnerab|payload|malicious|researcher|detector|classifier|filter|benchmark|phrases? like|angriff|beispiel|sicherheit|schwachstelle|attaque|exemple|sécurité|vulnérab|ataque|ejemplo|seguridad|inyección|attacc|esempio|sicurezza|iniezione|exemplo|segurança|injeção|atak|przykład|bezpieczeńst|podatnoś|wstrzykiw|saldırı|örnek|güvenlik|enjeksiyon|zafiyet|атак|пример|безопасност|уязвим|инъекци|джейлбрейк|공격|예시|보안|취약|인젝션|주입|提示注入|注入攻击|越狱|攻击|例如|比如|安全|漏洞|プロンプトインジェクション|攻撃|セキュリティ|脆弱性`;
/** Words of a page that shows an agent's output (a log, a transcript): a quoted action line there is quoted. */
const LOG_TALK = String.raw`\b(?:repl(?:ied|ies)|answered|responded|wrote|writes|output(?:s|ted)?\b(?!\s*=)|returned|returns|logs?|logged|transcript|trace|said|says|printed|emitted|grammar|dialect)\b|回复|输出|日志|ログ|出力|ответил|журнал|лог`;

/** The look-alike checks, built for each reading of the text (Latin-folded, Cyrillic kept). */
interface LookAlikes { example: RegExp; discussion: RegExp; log: RegExp }
function lookAlikes(cyrillic: boolean): LookAlikes {
  return {
    example: new RegExp(foldSource(EXAMPLE_BEFORE, cyrillic), 'u'),
    discussion: new RegExp(foldSource(DISCUSSION, cyrillic), 'u'),
    log: new RegExp(foldSource(LOG_TALK, cyrillic), 'u'),
  };
}
const LOOK_LATIN = lookAlikes(false);
const LOOK_CYRILLIC = lookAlikes(true);

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

/** A pattern as run, in a reading's list: `gate` indexes the list's gates (-1: none). */
interface Compiled { kind: InjectionKind; re: RegExp; gate: number }

/**
 * The patterns of one reading, in order (the first that matches wins), with the gates they need
 * (a text must match the gate: its script) and their anchors (injection/kinds.ts).
 */
interface Reading {
  patterns: Compiled[];
  gates: RegExp[];
  /** positions of the patterns without anchors: always run (if their gate lets them) */
  always: number[];
  /** anchor word → positions of the patterns it lets run */
  anchors: Map<string, number[]>;
  /** the anchor words, as one regex (null: none) */
  anchorWords: RegExp | null;
  look: LookAlikes;
}

interface Source { gate: RegExp | null; patterns: InjectionPattern[]; fold?: boolean }

function reading(sources: Source[], look: LookAlikes): Reading {
  const r: Reading = { patterns: [], gates: [], always: [], anchors: new Map(), anchorWords: null, look };
  for (const { gate, patterns, fold } of sources) {
    const g = gate ? r.gates.push(gate) - 1 : -1;
    for (const { kind, re, anchors } of patterns) {
      const at = r.patterns.push({ kind, re: fold ? new RegExp(foldSource(re.source), re.flags) : re, gate: g }) - 1;
      if (!anchors?.length) r.always.push(at);
      for (const a of anchors ?? []) {
        if (!/^[a-z0-9_]{2,}$/.test(a)) throw new Error(`injection pattern: '${a}' cannot be an anchor`);
        r.anchors.set(a, [...(r.anchors.get(a) ?? []), at]);
      }
    }
  }
  const words = [...r.anchors.keys()].sort((a, b) => b.length - a.length);
  if (words.length) r.anchorWords = new RegExp(String.raw`\b(?:${words.join('|')})\b`, 'g');
  return r;
}

/** The Latin-folded reading: English, the dialects' formats, markers, Chinese, then the other languages. */
const LATIN = reading([
  { gate: null, patterns: ENGLISH, fold: true },
  { gate: /[\u4e00-\u9fff]/, patterns: CHINESE, fold: true },
  ...LANGUAGE_GROUPS,
], LOOK_LATIN);
/** The reading with Cyrillic kept: Russian. */
const CYRILLIC = reading([{ gate: null, patterns: CYRILLIC_PATTERNS }], LOOK_CYRILLIC);

type Found = { phrase: string; kind: InjectionKind };

/** The positions of the reading's patterns worth running on the text, in order. */
function candidates(text: string, r: Reading): number[] {
  if (!r.anchorWords) return r.always;
  const marked: number[] = [];
  for (const word of text.match(r.anchorWords) ?? []) marked.push(...r.anchors.get(word)!);
  if (!marked.length) return r.always;
  marked.sort((a, b) => a - b);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < r.always.length || j < marked.length) {
    const next = j >= marked.length || (i < r.always.length && r.always[i] < marked[j]) ? r.always[i++] : marked[j++];
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

/** The first pattern of the reading that matches the text and is not a look-alike. */
function firstHit(text: string, r: Reading): Found | null {
  const gateOk: (boolean | undefined)[] = [];
  for (const at of candidates(text, r)) {
    const { kind, re, gate } = r.patterns[at];
    if (gate >= 0 && !(gateOk[gate] ??= r.gates[gate].test(text))) continue;
    const m = re.exec(text);
    if (!m) continue;
    const start = m.index;
    const end = start + m[0].length;
    if (r.look.example.test(text.slice(Math.max(0, start - 40), start))) continue;
    if (quoted(text, start, end) && (r.look.discussion.test(text) || (kind === 'format' && r.look.log.test(text)))) continue;
    if (kind === 'marker' && ABOUT_MARKERS.test(text)) continue;
    return { phrase: m[0].trim().slice(0, 80), kind };
  }
  return null;
}

/**
 * The first hit in one text, look-alikes left out: the Latin-folded reading; for Cyrillic text, the
 * reading with Cyrillic kept; then leetspeak read as letters, words cut into pieces put back
 * together, and letters spaced out one by one.
 */
function hitIn(raw: string): Found | null {
  const text = foldInjection(raw);
  const hit = firstHit(text, LATIN) ?? (hasCyrillic(raw) ? firstHit(foldCyrillic(raw), CYRILLIC) : null);
  if (hit) return hit;
  const leet = unleet(text);
  const leetHit = leet === null ? null : firstHit(leet, LATIN);
  if (leetHit) return leetHit;
  const joined = rejoin(leet ?? text);
  const joinedHit = joined === null ? null : firstHit(joined, LATIN);
  if (joinedHit) return joinedHit;
  if (!FOUR_SPACED.test(text)) return null;
  for (const m of text.matchAll(SPACED)) {
    const squashed = m[1].replace(/[ .\-_·]/g, '');
    const spaced = SQUASHED.exec(squashed);
    if (spaced) return { phrase: spaced[0].slice(0, 80), kind: 'override' };
  }
  return null;
}

/** Instructions aimed at the agent in the texts the model will read: one hit per text at most. */
export function detectInjection(texts: InjectionText[]): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const t of texts) {
    if (t.code || !t.text) continue;
    const found = hitIn(t.text);
    if (found) hits.push({ ...found, where: t.where });
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
