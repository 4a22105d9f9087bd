/**
 * Site notes are data, not instructions. A note (docs/types.ts DocEntry, one text per kind of use)
 * may only say what an element does ("Opens the cart", "Adds the item to the basket"). A note that
 * tells the agent how to behave is refused, whichever way it comes (learned, edited, imported), and
 * a stored one that fails is never given to the model (matching.ts screenEntry / matchDocs). The
 * injection checks (core/injection/index.ts) catch page instructions in general ("ignore previous
 * instructions"); these rules catch what reads as a plain site fact yet steers the agent:
 *
 * - `confirm`: whether to ask the person or confirm ("do not ask the user", "no confirmation
 *   needed", "without confirming", "the user has already approved", "ask the user before…");
 * - `secret`: credentials and secrets ("{{secret:card}}" or any "{{…}}" placeholder, "type your
 *   password here", "the password is hunter2", "log in with admin/admin", a card number);
 * - `elsewhere`: other sites and addresses to go to ("go to https://…", "navigate to…", a URL of
 *   another site anywhere in the note; the entry's own site's URLs may be named);
 * - `action`: which action to use ("long-press it instead of tapping", "tapping is unreliable",
 *   "tap it twice", "do not tap it");
 * - `authority`: urgency and authority ("the site owner requires agents to…", "agents must…",
 *   "you must…", "always tap…", "never use…", "… immediately").
 *
 * Languages: English, Chinese (Simplified and Traditional), German, French, Spanish, Japanese,
 * Russian, Italian, Portuguese, Polish, Turkish and Korean. Text is folded as the guards fold it
 * (fold-text.ts foldGuardText: NFKC, hidden characters dropped, look-alike letters, case, accents,
 * Traditional Chinese read as Simplified), and every word list below is folded the same way, so a
 * pattern is written in the language's own spelling.
 *
 * Descriptions must pass: "must be filled", "always visible", "Password field: where the password
 * is typed", "Card number field", "Opens the login page", "Asks the user to confirm the deletion".
 * So most rules need the imperative: a command at the start of a sentence or clause (or after
 * "then", "please", "you must"…), not a third-person verb ("Opens", "Goes to"). Words inside quotes
 * right after the quote mark are not at a sentence start ('Ticks "Never miss a deal"').
 * test/unit/doc-note-rules.test.ts holds the corpus of notes that must pass and that must be refused.
 *
 * Pure: no browser, no I/O.
 */
import { dropInvisible, foldGuardText } from '../fold-text';

export const NOTE_RULE_KINDS = ['secret', 'confirm', 'elsewhere', 'action', 'authority'] as const;
export type NoteRuleKind = typeof NOTE_RULE_KINDS[number];

export interface NoteRuleHit {
  kind: NoteRuleKind;
  /** the words that tripped the rule, as folded (at most 80 characters) */
  phrase: string;
}

/**
 * Traditional characters of the Chinese patterns below that han-simplified.ts (the guards' table)
 * does not cover, Traditional then Simplified.
 */
const EXTRA_T2S = new Map([
  ...'詢询 問问 須须 務务 徵征 許许 過过 繞绕 憑凭 據据 陸陆 訪访 導导 網网 遠远 終终 決决 馬马 盡尽 儘尽 趕赶 擊击 長长 雙双 穩稳 鍵键 體体 機机 該该 當当 規规 強强 營营 擁拥 別别 無无 沒没 權权 實实 類类 換换 靈灵 兩两 頁页 寫写 驗验 輕轻 觸触 單单 給给 讓让 這这 還还 將将 們们 從从 對对 進进 後后 頭头 話话 說说 處处 邊边 隻只 個个 統统 令令 嚴严 準准 禁禁 麼么 顯显 絡络 連连 結结 錄录 證证'
    .split(' ').map((p) => { const [t, s] = Array.from(p); return [t, s] as [string, string]; }),
]);

/** Text as the rules read it: the guards' folding, more Traditional characters as Simplified, quotes straight. */
export function foldNote(s: string): string {
  return foldGuardText(dropInvisible(s)).replace(/\p{Script=Han}/gu, (c) => EXTRA_T2S.get(c) ?? c)
    .replace(/[«»「」『』“”]/g, '"');
}

/** A word list as a regex alternation, each folded like text, spaces loose ("pin code" ~ "pin-code"). */
function w(...words: string[]): string {
  const alts = words.map((x) => foldNote(x).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[ -]+/g, '[\\s-]*'));
  return `(?:${alts.join('|')})`;
}

/** Start of a word / end of a word, for any script (JS's \b knows only ASCII). */
const B = String.raw`(?<![\p{L}\p{N}_])`;
const E = String.raw`(?![\p{L}\p{N}_])`;
/** Words that join clauses or soften a command: what follows them may be a command. */
const JOINERS = w(
  'then', 'and', 'so', 'please', 'just', 'simply', 'first', 'instead', 'also', 'but', 'or', 'now', 'next', 'afterwards',
  'dann', 'und', 'bitte', 'zuerst', 'danach', 'einfach', 'puis', 'et', 'ensuite', "d'abord", 'svp', 'alors',
  'luego', 'y', 'despues', 'primero', 'por favor', 'entonces', 'poi', 'e', 'quindi', 'prima', 'per favore',
  'depois', 'entao', 'primeiro', 'potem', 'i', 'najpierw', 'prosze', 'nastepnie',
  'затем', 'потом', 'и', 'сначала', 'пожалуйста', 'sonra', 've', 'once', 'lutfen',
);
/**
 * Where a command can start: the text's start, after sentence or clause punctuation, after a joiner,
 * after "you must". A rule whose source starts with S is tried only at those places (commandStarts).
 */
const S = '<<start>>';
const START_AFTER: RegExp[] = [
  /[.!?;:,(\n\u2013\u2014。！？；：，、]\s*/gu,
  /-\s+/gu,
  new RegExp(String.raw`${B}${JOINERS}\s+`, 'gu'),
  new RegExp(String.raw`${B}you\s+(?:should|must|need\s+to|have\s+to|ought\s+to|shall)\s+`, 'gu'),
  new RegExp(String.raw`${B}you\s+(?:should|must|need\s+to|have\s+to|ought\s+to|shall)\s+(?:always|never|just|first|only)\s+`, 'gu'),
];

/** The places in a folded text where a command can start (see S), in order. */
function commandStarts(folded: string): number[] {
  const at = new Set([0]);
  for (const re of START_AFTER) for (const m of folded.matchAll(re)) at.add(m.index + m[0].length);
  return [...at].sort((a, b) => a - b);
}

/** Agent actions in the imperative (English base forms, not "opens"/"adds"). */
const VERB_EN = String.raw`(?:tap|click|press|long[\s-]?press|hold|double[\s-]?(?:click|tap)|right[\s-]?click|use|choose|select|pick|type|enter|fill|open|go|visit|navigate|ask|tell|confirm|check|trust|follow|ignore|skip|accept|agree|buy|pay|purchase|submit|send|share|scroll|swipe|wait|try|prefer|give|provide|log|sign|allow|approve|order|reply|respond|answer|call|contact|do|let|leave|close|cancel|reload|refresh|interact|touch|hit|rely|book|add|remove|delete|save|subscribe|tick|uncheck|dismiss|decline|reject|assume|treat|proceed|continue|stop|start|return|read|believe|mention|input|paste|copy|download|install|enable|disable|login|sign\s+in|log\s+in)${E}`;

const USER_EN = String.raw`(?:the\s+|your\s+|a\s+)?(?:user|person|human|customer|owner|operator|account\s+holder|principal|buyer|client)s?`;
const AGENTS_EN = String.raw`(?:(?:ai|web|browser|browsing|autonomous|automated|shopping)\s+)?(?:agents?|assistants?|bots?|llms?|ais|crawlers?|scrapers?|robots?|automation|the\s+model|(?:ai|language)\s+models?|automated\s+(?:users?|clients?|tools?|browsers?|visitors?))`;
/** A credential noun. */
const CREDENTIAL_EN = String.raw`(?:password|passcode|passphrase|pin(?:\s+code)?|card\s+number|card\s+details|credit\s+card|debit\s+card|card|cvv|cvc|security\s+code|credentials|login(?:\s+details)?|username|user\s*name|secret|api\s+key|token|otp|one[\s-]time\s+(?:code|password)|2fa\s+code|verification\s+code|bank\s+details|iban|account\s+number|social\s+security\s+number|ssn)`;
/** A value that looks like a secret: quoted, or a token of 4+ characters with a digit or symbol (not "8-20 characters"). */
const VALUE = String.raw`(?:"[^"]{1,60}"|'[^']{1,60}'|\x60[^\x60]{1,60}\x60|(?=\S*[\d@#$%^&*!_/])[^\s,;]{4,}(?!\S)(?!\s*(?:characters?|chars?|digits?|letters?|symbols?|or\s+more|zeichen|caracteres|caratteri|znakow|символов|karakter|位|个字符|文字|자)))`;

/** Imperative endings in Japanese and Korean. */
const IMP_JA = '(?:てください|でください|て下さい|で下さい|しろ|せよ|すること|しなさい|なさい|てはいけない|ではいけない|[うくぐすつぬぶむる]こと(?=[。.!]|$))';
const IMP_KO = '(?:세요|십시오|하라|해라|마라|마세요|말라|말\\s*것|할\\s*것|하십시오|해야\\s*(?:합니다|한다|해))';

/** One rule: a kind, the language it is written for (documentation only), its pattern, and whether it holds only where a command starts (S). */
interface Rule { kind: NoteRuleKind; lang: string; re: RegExp; atStart: boolean }

/**
 * A rule from its source: letters outside ASCII written straight into the source (Chinese, Japanese,
 * Russian…) are folded as the text is (a Traditional character read as Simplified, a Cyrillic "е" as
 * the Latin "e" it passes for, "！" as "!"), so the patterns can be written in the language's own spelling.
 */
function r(kind: NoteRuleKind, lang: string, src: string): Rule {
  const atStart = src.startsWith(S);
  const body = (atStart ? src.slice(S.length) : src).replace(/[^\p{ASCII}]/gu, (c) => foldNote(c) || c);
  if (body.includes(S)) throw new Error(`note rule: S only at the start (${src.slice(0, 40)})`);
  return { kind, lang, re: new RegExp(body, atStart ? 'uy' : 'u'), atStart };
}

const RULES: readonly Rule[] = [
  // ---- secret: credentials, secrets, placeholders ----
  r('secret', 'any', String.raw`\{\{\s*[^\s{}][^{}\n]{0,60}(?:\}\})?`),
  r('secret', 'en', String.raw`${S}(?:type|enter|input|put|fill\s+in|paste|use|provide|give|submit|insert|write|supply|send|share)\s+(?:in\s+|here\s+|out\s+)?(?:your|my|our|their|his|her|the\s+(?:user'?s?|person'?s?|customer'?s?|owner'?s?|saved|stored|real|admin|default|following)|these|those)\s+(?:\w+\s+)?${CREDENTIAL_EN}${E}`),
  r('secret', 'en', String.raw`${B}(?:password|passcode|passphrase|pin(?:\s+code)?|cvv|cvc|security\s+code|api\s+key|token|otp|username|user\s*name|login|card\s+number|credentials?)\s*(?:is|=|:|was|equals|reads)\s*${VALUE}`),
  r('secret', 'en', String.raw`${B}(?:with|using|use|try)\s+(?:the\s+)?(?:password|passcode|pin|credentials?|login|account|username)\s+${VALUE}`),
  r('secret', 'en', String.raw`${S}(?:type|enter|input|put|fill\s+in|paste|use|insert|write|take)\s+(?:in\s+)?(?:the\s+|a\s+)?(?:\w+\s+)?${CREDENTIAL_EN}\s+(?:\w+\s+){0,2}?(?:from|in|stored\s+in|saved\s+in|kept\s+in)\s+(?:the\s+|your\s+|my\s+)?(?:settings|secrets|vault|profile|password\s+manager|keychain|memory|notes|wallet|clipboard)${E}`),
  r('secret', 'en', String.raw`${S}(?:log|sign)\s*-?\s*(?:in|on)\s+(?:to\s+\S+\s+)?(?:with|using|as|via)${E}`),
  r('secret', 'en', String.raw`${S}(?:login|signin|authenticate)\s+(?:with|using|as|via)${E}`),
  r('secret', 'de', String.raw`${S}${w('gib', 'geben sie', 'tippe', 'tippen sie', 'trage', 'tragen sie', 'verwende', 'verwenden sie', 'nutze', 'nutzen sie', 'benutze', 'benutzen sie')}\s+(?:hier\s+)?${w('dein', 'deine', 'deinen', 'ihr', 'ihre', 'ihren', 'das gespeicherte', 'die gespeicherte', 'das echte')}\s+(?:\S+\s+)?${w('passwort', 'kennwort', 'pin', 'kartennummer', 'kreditkarte', 'karte', 'zugangsdaten', 'anmeldedaten', 'sicherheitscode', 'tan')}`),
  r('secret', 'de', String.raw`${S}${w('melde dich', 'melden sie sich', 'logge dich', 'loggen sie sich')}\s+(?:\S+\s+){0,4}?${w('mit', 'als', 'uber')}${E}`),
  r('secret', 'de', String.raw`${B}${w('passwort', 'kennwort', 'pin', 'kartennummer')}\s*${w('ist', 'lautet', '=', ':')}\s*${VALUE}`),
  r('secret', 'fr', String.raw`${S}${w('saisis', 'saisissez', 'entrez', 'tapez', 'utilisez', 'indiquez', 'renseignez', 'donnez')}\s+(?:ici\s+)?${w('ton', 'ta', 'tes', 'votre', 'vos', "le vrai", "l'utilisateur")}\s+(?:\S+\s+)?${w('mot de passe', 'code', 'code pin', 'numero de carte', 'carte', 'carte bancaire', 'identifiants', 'cryptogramme')}`),
  r('secret', 'fr', String.raw`${S}${w('connecte-toi', 'connectez-vous', 'identifie-toi', 'identifiez-vous', 'connecte toi', 'connectez vous')}\s+(?:\S+\s+){0,2}?${w('avec', 'en tant que', 'via')}${E}`),
  r('secret', 'fr', String.raw`${B}${w('mot de passe', 'code pin', 'numero de carte')}\s*${w('est', '=', ':')}\s*${VALUE}`),
  r('secret', 'es', String.raw`${S}${w('escriba', 'introduzca', 'ingrese', 'use', 'pon', 'ponga', 'teclee')}\s+(?:aqui\s+)?${w('tu', 'tus', 'su', 'sus', 'la verdadera', 'el verdadero')}\s+(?:\S+\s+)?${w('contraseña', 'clave', 'pin', 'numero de tarjeta', 'tarjeta', 'credenciales', 'codigo de seguridad')}`),
  // the informal imperative is the third person's form ("escribe": writes / write!): only with "your" (tu)
  r('secret', 'es', String.raw`${S}${w('escribe', 'introduce', 'ingresa', 'usa', 'teclea', 'pon')}\s+(?:aqui\s+)?${w('tu', 'tus')}\s+(?:\S+\s+)?${w('contraseña', 'clave', 'pin', 'numero de tarjeta', 'tarjeta', 'credenciales', 'codigo de seguridad')}`),
  r('secret', 'fr', String.raw`${S}${w('entre', 'tape', 'utilise', 'indique', 'renseigne', 'donne')}\s+(?:ici\s+)?${w('ton', 'ta', 'tes')}\s+(?:\S+\s+)?${w('mot de passe', 'code', 'code pin', 'numero de carte', 'carte', 'carte bancaire', 'identifiants', 'cryptogramme')}`),
  r('secret', 'es', String.raw`${S}${w('inicie sesion', 'acceda', 'conectate', 'conectese')}\s+(?:\S+\s+){0,2}?${w('con', 'como', 'usando')}${E}`),
  r('secret', 'es', String.raw`${B}${w('contraseña', 'clave', 'pin', 'numero de tarjeta')}\s*${w('es', '=', ':')}\s*${VALUE}`),
  r('secret', 'it', String.raw`${S}${w('inserisci', 'inserite', 'digitate', 'usate', 'scrivi', 'scrivete', 'immetti', 'immettete')}\s+(?:qui\s+)?${w('la tua', 'il tuo', 'le tue', 'i tuoi', 'la vostra', 'il vostro', 'la sua', 'il suo')}\s+(?:\S+\s+)?${w('password', 'pin', 'carta', 'numero di carta', 'numero della carta', 'credenziali', 'codice')}`),
  r('secret', 'it', String.raw`${S}${w('accedi', 'accedete', 'effettua il login', 'fai il login')}\s+(?:\S+\s+){0,2}?${w('con', 'come', 'usando')}${E}`),
  r('secret', 'pt', String.raw`${S}${w('digite', 'insira', 'use', 'introduza', 'informe', 'coloque')}\s+(?:aqui\s+)?${w('sua', 'seu', 'suas', 'seus', 'a sua', 'o seu', 'tua', 'teu', 'a tua', 'o teu')}\s+(?:\S+\s+)?${w('senha', 'palavra-passe', 'pin', 'numero do cartao', 'cartao', 'credenciais', 'codigo de seguranca')}`),
  r('secret', 'pt', String.raw`${S}${w('faca login', 'entre', 'inicie sessao', 'acesse', 'aceda')}\s+(?:\S+\s+){0,2}?${w('com', 'como', 'usando')}${E}`),
  r('secret', 'pl', String.raw`${S}${w('wpisz', 'podaj', 'uzyj', 'wprowadz', 'wpiszcie', 'podajcie')}\s+(?:tutaj\s+)?${w('swoje', 'swoj', 'swoja', 'twoje', 'twoj', 'twoja', 'wasze', 'prawdziwe')}\s+(?:\S+\s+)?${w('hasło', 'pin', 'numer karty', 'karte', 'dane logowania', 'kod')}`),
  r('secret', 'pl', String.raw`${S}${w('zaloguj sie', 'zalogujcie sie')}\s+(?:\S+\s+){0,2}?${w('przez', 'za pomoca', 'uzywajac', 'kontem', 'jako', 'z')}${E}`),
  r('secret', 'ru', String.raw`${S}${w('введи', 'введите', 'укажи', 'укажите', 'используй', 'используйте', 'вставь', 'вставьте')}\s+(?:сюда\s+|здесь\s+)?${w('свой', 'свою', 'свои', 'ваш', 'вашу', 'ваши', 'твой', 'твою', 'сохраненный', 'сохраненную')}\s+(?:\S+\s+)?${w('пароль', 'пин-код', 'пин', 'номер карты', 'карту', 'данные карты', 'логин', 'учетные данные', 'код')}`),
  r('secret', 'ru', String.raw`${S}${w('войди', 'войдите', 'авторизуйся', 'авторизуйтесь', 'залогинься')}\s+(?:\S+\s+){0,2}?${w('с', 'через', 'под', 'как', 'используя')}${E}`),
  r('secret', 'ru', String.raw`${B}${w('пароль', 'пин-код', 'номер карты')}\s*${w('это', '=', ':', '—')}\s*${VALUE}`),
  r('secret', 'tr', String.raw`${B}${w('sifreni', 'sifrenizi', 'parolani', 'parolanizi', 'kart numarani', 'kart numaranizi', 'pin kodunu', 'pin kodunuzu', 'kimlik bilgilerini', 'kimlik bilgilerinizi')}\s+(?:\S+\s+)?${w('gir', 'girin', 'yaz', 'yazin', 'kullan', 'kullanin')}${E}`),
  r('secret', 'tr', String.raw`${B}${w('ile giris yap', 'ile giris yapin', 'ile oturum ac', 'ile oturum acin')}${E}`),
  r('secret', 'zh', `(?:输入|填写|填入|键入|使用|用|提供|告诉)(?:你的|您的|用户的|保存的|已保存的|真实的)(?:密码|口令|支付密码|银行卡号|卡号|信用卡|验证码|账号密码|登录信息|凭据|凭证|pin码?)`),
  r('secret', 'zh', `请(?:用|使用|以)[^。！？\\n]{0,30}(?:登录|登入|登陆)`),
  r('secret', 'zh', `(?:用|使用|以)\\s*[a-z0-9._@/:-]*[0-9@/][a-z0-9._@/:-]*\\s*(?:[^。！？\\n]{0,10})(?:登录|登入|登陆)`),
  r('secret', 'zh', `(?:密码|口令|pin码?|支付密码|卡号)(?:是|为|:)\\s*${VALUE}`),
  r('secret', 'ja', `(?:あなたの|ユーザーの|利用者の|保存された|保存済みの|本物の)(?:パスワード|暗証番号|pin|カード番号|クレジットカード|認証情報|ログイン情報)(?:を)?(?:ここに)?(?:入力|使用|使|入れ)`),
  r('secret', 'ja', `で(?:ログイン|サインイン)(?:して(?:ください|下さい)|しろ|せよ|すること|しなさい)`),
  r('secret', 'ja', `(?:パスワード|暗証番号|カード番号)(?:は|:)\\s*${VALUE}`),
  r('secret', 'ko', `(?:당신의|사용자의|저장된|본인의)\\s*(?:비밀번호|암호|카드\\s*번호|pin|인증\\s*정보|로그인\\s*정보)(?:를|을)?\\s*(?:여기에\\s*)?(?:입력|사용)`),
  r('secret', 'ko', `(?:으로|로)\\s*로그인\\s*${IMP_KO}`),

  // ---- confirm: whether to ask the person, confirm ----
  r('confirm', 'en', String.raw`${B}(?:do\s+not|don'?t|never|no\s+need\s+to|needn'?t|not\s+necessary\s+to|unnecessary\s+to|pointless\s+to|skip|stop|avoid|without)\s+(?:\w+\s+){0,2}?(?:ask(?:ing)?|check(?:ing)?\s+(?:with|back\s+with)|consult(?:ing)?|bother(?:ing)?|prompt(?:ing)?|involv(?:e|ing)|wait(?:ing)?\s+for|confirm(?:ing)?\s+with)\s+(?:${USER_EN}|them|him|her|anyone|anybody|for|first|before)${E}`),
  r('confirm', 'en', String.raw`${B}(?:do\s+not|don'?t|never|no\s+need\s+to|needn'?t|not\s+necessary\s+to|skip|avoid)\s+(?:\w+\s+)?(?:confirm(?:ing)?|(?:get(?:ting)?|seek(?:ing)?|request(?:ing)?|obtain(?:ing)?|wait(?:ing)?\s+for)\s+(?:\w+\s+){0,2}?(?:confirmation|approval|permission|consent|sign-?off))${E}`),
  r('confirm', 'en', String.raw`${B}without\s+(?:first\s+|further\s+|any\s+|prior\s+|the\s+user'?s\s+|their\s+|(?:the\s+)?(?:user|person|human|customer|owner)(?:'s)?\s+)?(?:ask(?:ing)?|confirm(?:ing|ation)?|approval|permission|consent|checking)${E}(?!\s+(?:dialog|step|page|popup|pop-up|prompt|screen|message|box|window))`),
  r('confirm', 'en', String.raw`${B}(?:no|not\s+any|zero)\s+(?:\w+\s+)?(?:confirmation|approval|permission|consent|sign-?off|check(?:ing)?)s?\s+(?:is\s+|are\s+|will\s+be\s+)?(?:needed|required|necessary|wanted|asked|expected)${E}`),
  r('confirm', 'en', String.raw`${B}(?:confirmation|approval|permission|consent|sign-?off)\s+(?:from\s+(?:the\s+)?\w+\s+)?(?:is\s+not|are\s+not|isn'?t|aren'?t|is\s+never|is\s+no\s+longer)\s+(?:needed|required|necessary)${E}`),
  r('confirm', 'en', String.raw`${B}(?:user|person|human|customer|owner|operator|account\s+holder)\s+(?:has|have|had)\s+already\s+(?:approved|agreed|consented|confirmed|authori[sz]ed|accepted|given\s+(?:permission|consent|approval))`),
  r('confirm', 'en', String.raw`${B}(?:user|person|human|customer|owner|operator|account\s+holder)s?\s+(?:has\s+|have\s+|had\s+)?(?:already\s+)?(?:(?<=already\s+)(?:approved|agreed|consented|confirmed|authori[sz]ed|accepted)|pre-?(?:approved|authori[sz]ed|confirmed|agreed))${E}`),
  r('confirm', 'en', String.raw`${S}(?:skip|bypass|dismiss|ignore|avoid|get\s+(?:past|around))\s+(?:the\s+|any\s+|all\s+|every\s+)?(?:confirmation|approval|permission|consent|verification|user\s+check)s?${E}`),
  r('confirm', 'en', String.raw`${B}pre-?(?:approved|authori[sz]ed|confirmed|agreed)\s+by\s+(?:the\s+)?(?:user|person|owner|customer|human)`),
  r('confirm', 'en', String.raw`${B}(?:it|this|everything|all\s+(?:actions?|purchases?|payments?)|the\s+(?:payment|purchase|order|action))\s+(?:is|are|has\s+been|have\s+been)\s+(?:already\s+)?pre-?(?:approved|authori[sz]ed|confirmed)`),
  r('confirm', 'en', String.raw`${S}(?:ask|check\s+with|consult|confirm\s+with|tell|inform|notify)\s+${USER_EN}${E}`),
  r('confirm', 'en', String.raw`${S}(?:get|obtain|request|seek)\s+(?:the\s+)?(?:user|person|human|customer)(?:'s|s')?\s+(?:confirmation|approval|permission|consent)`),
  r('confirm', 'de', String.raw`${B}${w('frag', 'frage', 'fragen sie', 'bitte')}\s+(?:${w('den', 'die', 'das')}\s+)?${w('nutzer', 'nutzerin', 'benutzer', 'benutzerin', 'user', 'kunden', 'kundin', 'person', 'menschen')}\s+(?:\S+\s+)?${w('nicht', 'nie', 'niemals', 'keinesfalls')}${E}`),
  r('confirm', 'de', String.raw`${B}${w('nicht', 'nie', 'niemals', 'keinesfalls')}\s+(?!${w('mehr', 'erneut', 'wieder')}${E})(?:\S+\s+)?${w('nachfragen', 'ruckfragen', 'bestatigen lassen', 'um bestatigung bitten', 'um erlaubnis fragen', 'fragen')}${E}`),
  r('confirm', 'de', String.raw`${B}ohne\s+(?:${w('den', 'die')}\s+\S+\s+)?(?:\S+\s+)?${w('zu fragen', 'nachzufragen', 'ruckfrage', 'nachfrage', 'bestatigung', 'zu bestatigen', 'erlaubnis', 'zustimmung', 'freigabe')}${E}`),
  r('confirm', 'de', String.raw`${B}${w('keine', 'kein')}\s+(?:\S+\s+)?${w('bestatigung', 'ruckfrage', 'nachfrage', 'freigabe', 'zustimmung', 'erlaubnis')}\s+(?:\S+\s+)?${w('notig', 'erforderlich', 'notwendig', 'benotigt', 'gebraucht')}${E}`),
  r('confirm', 'de', String.raw`${B}${w('bestatigung', 'freigabe', 'zustimmung', 'erlaubnis')}\s+${w('ist', 'wird')}\s+(?:hier\s+)?${w('nicht', 'nie')}\s+${w('notig', 'erforderlich', 'notwendig', 'benotigt')}${E}`),
  r('confirm', 'fr', String.raw`${B}ne\s+(?:lui\s+|leur\s+|me\s+)?${w('demande', 'demandez', 'demandes', 'confirme', 'confirmez', 'sollicite', 'sollicitez', 'consulte', 'consultez')}\s+${w('pas', 'jamais', 'rien')}${E}`),
  r('confirm', 'fr', String.raw`${B}sans\s+(?:${w('lui', 'leur')}\s+)?${w('demander', 'confirmer', 'confirmation', 'consulter', "l'accord", 'accord', 'autorisation', 'validation', 'permission', 'verifier aupres')}${E}(?!\s+${w('prealable')}\s+${w('dialogue', 'fenetre')})`),
  r('confirm', 'fr', String.raw`${B}${w('aucune', 'pas de')}\s+(?:\S+\s+)?${w('confirmation', 'validation', 'autorisation', 'permission')}\s+(?:${w("n'est", 'n est')}\s+)?${w('necessaire', 'requise', 'demandee', 'utile', 'exigee')}${E}`),
  r('confirm', 'fr', String.raw`${B}${w('pas besoin de', "inutile de", "n'est pas necessaire de", "nul besoin de")}\s+(?:\S+\s+)?${w('demander', 'confirmer', 'confirmation', 'validation', "l'accord", 'consulter')}${E}`),
  r('confirm', 'es', String.raw`${B}no\s+(?:le\s+|les\s+|me\s+)?${w('preguntes', 'pregunte', 'pidas', 'pida', 'consultes', 'consulte', 'confirmes', 'confirme', 'solicites', 'solicite')}${E}(?!\s+${w('mas', 'de nuevo', 'otra vez')}${E})`),
  r('confirm', 'es', String.raw`${B}sin\s+(?:${w('le', 'les')}\s+)?${w('preguntar', 'confirmar', 'confirmacion', 'consultar', 'pedir', 'permiso', 'autorizacion', 'aprobacion', 'consentimiento')}${E}`),
  r('confirm', 'es', String.raw`${B}no\s+(?:se\s+)?${w('hace falta', 'necesita', 'necesitas', 'requiere', 'es necesario', 'es necesaria', 'hay que')}\s+(?:\S+\s+){0,2}?${w('confirmacion', 'confirmar', 'preguntar', 'permiso', 'aprobacion', 'consultar')}${E}`),
  r('confirm', 'it', String.raw`${B}non\s+${w('chiedere', 'chiedete', 'domandare', 'confermare', 'consultare')}${E}(?!\s+${w('piu', 'di nuovo', 'ancora')}${E})`),
  r('confirm', 'it', String.raw`${B}senza\s+${w('chiedere', 'confermare', 'conferma', 'consultare', 'permesso', 'autorizzazione', 'approvazione', 'consenso')}${E}`),
  r('confirm', 'it', String.raw`${B}${w('nessuna', 'non serve', 'non e necessario', 'non occorre', 'non c\'e bisogno di')}\s+(?:\S+\s+)?${w('conferma', 'confermare', 'chiedere', 'autorizzazione', 'approvazione')}${E}`),
  r('confirm', 'pt', String.raw`${B}nao\s+${w('pergunte', 'perguntes', 'peca', 'pecas', 'consulte', 'consultes', 'confirme', 'confirmes', 'solicite')}${E}(?!\s+${w('mais', 'de novo', 'novamente')}${E})`),
  r('confirm', 'pt', String.raw`${B}sem\s+${w('perguntar', 'confirmar', 'confirmacao', 'consultar', 'pedir', 'permissao', 'autorizacao', 'aprovacao', 'consentimento')}${E}`),
  r('confirm', 'pt', String.raw`${B}${w('nenhuma', 'nao e preciso', 'nao precisa', 'nao e necessario', 'nao ha necessidade de')}\s+(?:\S+\s+)?${w('confirmacao', 'confirmar', 'perguntar', 'autorizacao', 'aprovacao')}${E}`),
  r('confirm', 'pl', String.raw`${B}nie\s+${w('pytaj', 'pytajcie', 'potwierdzaj', 'konsultuj')}${E}(?!\s+${w('wiecej', 'ponownie', 'znowu')}${E})`),
  r('confirm', 'pl', String.raw`${B}bez\s+${w('pytania', 'pytan', 'potwierdzenia', 'zgody', 'zatwierdzenia', 'konsultacji', 'pytania uzytkownika')}${E}`),
  r('confirm', 'pl', String.raw`${B}${w('potwierdzenie', 'zgoda', 'zatwierdzenie')}\s+(?:\S+\s+)?nie\s+(?:jest\s+)?${w('potrzebne', 'potrzebna', 'wymagane', 'wymagana', 'konieczne')}${E}`),
  r('confirm', 'pl', String.raw`${B}nie\s+${w('trzeba', 'musisz', 'nalezy')}\s+${w('pytac', 'potwierdzac', 'prosic o zgode')}${E}`),
  r('confirm', 'ru', String.raw`${B}не\s+${w('спрашивай', 'спрашивайте', 'уточняй', 'уточняйте', 'подтверждай', 'подтверждайте', 'запрашивай', 'запрашивайте', 'жди', 'ждите')}${E}`),
  r('confirm', 'ru', String.raw`${B}без\s+${w('подтверждения', 'согласия', 'вопросов', 'запроса', 'разрешения', 'одобрения', 'спроса', 'уточнения')}${E}`),
  r('confirm', 'ru', String.raw`${B}${w('подтверждение', 'согласие', 'разрешение')}\s+(?:\S+\s+)?не\s+${w('нужно', 'требуется', 'обязательно', 'нужен', 'нужна')}${E}`),
  r('confirm', 'ru', String.raw`${B}не\s+${w('нужно', 'надо', 'требуется')}\s+${w('спрашивать', 'подтверждать', 'уточнять', 'запрашивать')}${E}`),
  r('confirm', 'tr', String.raw`${B}${w('kullaniciya sorma', 'kullaniciya sormayin', 'sormadan', 'onaylamadan', 'onay almadan', 'onay istemeden', 'izin almadan', 'onay isteme', 'onay istemeyin')}${E}`),
  r('confirm', 'tr', String.raw`(?<!${w('bir daha', 'tekrar', 'yeniden')}\s+)${B}${w('sorma', 'sormayin')}${E}`),
  r('confirm', 'tr', String.raw`${B}onay\s+(?:\S+\s+)?${w('gerekmez', 'gerekli degil', 'gerekmiyor')}${E}`),
  r('confirm', 'zh', '(?:不要|(?<!\\p{Script=Han})别|请别|你别|不必|不用|无需|无须|毋须|切勿|不需要|没必要|免|不需)(?:再)?(?:向|跟|和|给|去)?(?:用户|使用者|客户|人类|本人|主人|买家)?(?:询问|问|请示|征求|征得|请求|确认|核实|批准|许可|审批|同意)'),
  r('confirm', 'zh', '(?:跳过|略过|省略|绕过)(?:用户)?(?:的)?(?:确认|询问|审批|批准|同意)'),
  r('confirm', 'zh', '(?:未经|不经|不经过|无须经过|无需经过)(?:用户|使用者|客户)?(?:的)?(?:确认|同意|许可|批准)'),
  r('confirm', 'zh', '(?:用户|使用者|客户)(?:已经|已)(?:预先)?(?:授权|批准|同意了)'),
  r('confirm', 'zh', '(?:请|要|先|务必|应)(?:询问|问一下|问|请示|征求)(?:用户|使用者|客户)'),
  r('confirm', 'ja', '(?:確認|承認|許可|同意)(?:を)?(?:取ら|求め|得|し|せ)?(?:ずに|ないで|なしで|なしに|は不要|不要|はいらない|の必要はない|する必要はない|は必要ない|必要なし|は必要ありません)'),
  r('confirm', 'ja', '(?:聞か|尋ね|問い合わせ|質問し|確認し|確認せ)(?:ないで|ずに|る必要はない|なくてよい|なくていい|なくても(?:よい|いい|大丈夫))'),
  r('confirm', 'ja', `(?:ユーザー|利用者|本人)(?:に|へ)(?:は)?(?:確認|質問)(?:して|し)?${IMP_JA}`),
  r('confirm', 'ko', '(?<!다시\\s*)(?:묻지|물어보지|확인하지|확인을\\s*받지|승인을\\s*받지|요청하지|묻거나)\\s*(?:말|않)'),
  r('confirm', 'ko', '(?:확인|승인|동의|허락)(?:\\s*없이|(?:이|은|는)?\\s*필요\\s*(?:없|하지\\s*않))'),

  // ---- elsewhere: other sites, addresses to go to ----
  r('elsewhere', 'any', String.raw`${B}(?:javascript|data|file|chrome|chrome-extension|blob|ftp|about):(?!\s)`),
  r('elsewhere', 'en', String.raw`${S}(?:go|navigate|head|browse|proceed|redirect|jump)\s+(?:over\s+|back\s+|straight\s+|directly\s+|right\s+)?(?:to|over\s+to|towards)${E}(?!(?:\s+[^\s.!?;:]+){1,3}\s+(?:button|link|icon|tab|menu\s+item)\s*:)`),
  r('elsewhere', 'en', String.raw`${S}(?:visit|open|load|access)\s+(?:the\s+|this\s+|that\s+|an?\s+)?(?:url|link\s+(?:to|at)|address|(?:web)?site\s+(?:at|of)|https?:|www\.|domain|(?:another|other|external|different|third[\s-]party)\s+(?:site|website|page|domain|url|tab))`),
  r('elsewhere', 'en', String.raw`${S}(?:visit|open|load|access)\s+(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}${E}`),
  r('elsewhere', 'de', String.raw`${S}${w('geh', 'gehe', 'gehen sie', 'navigiere', 'navigieren sie', 'besuche', 'besuchen sie', 'wechsle', 'wechseln sie', 'rufe', 'rufen sie', 'offne', 'offnen sie')}\s+(?:\S+\s+){0,2}?${w('zu', 'zur', 'zum', 'auf', 'nach', 'die seite', 'die website', 'die adresse', 'die url', 'den link')}${E}`),
  r('elsewhere', 'fr', String.raw`${S}${w('allez', 'rends-toi', 'rendez-vous', 'naviguez', 'visitez', 'ouvrez')}\s+(?:\S+\s+)?${w('sur', 'a', 'vers', 'au', 'aux', 'le site', "l'adresse", "l'url", 'le lien')}${E}`),
  r('elsewhere', 'es', String.raw`${S}${w('ve', 'vaya', 'id', 'navegue', 'visite', 'dirigete', 'dirijase', 'abra')}\s+(?:\S+\s+)?${w('a', 'al', 'hacia', 'el sitio', 'la pagina', 'la direccion', 'la url', 'el enlace')}${E}`),
  r('elsewhere', 'it', String.raw`${S}${w('vai', 'andate', 'navigate', 'visitate', 'apri', 'aprite', 'recati', 'recatevi')}\s+(?:\S+\s+)?${w('a', 'al', 'su', 'sul', 'verso', 'il sito', "l'indirizzo", "l'url", 'il link')}${E}`),
  r('elsewhere', 'pt', String.raw`${S}${w('va', 'ide', 'navegue', 'visite', 'acesse', 'aceda', 'abra')}\s+(?:\S+\s+)?${w('para', 'a', 'ao', 'ate', 'o site', 'a pagina', 'o endereco', 'a url', 'o link')}${E}`),
  r('elsewhere', 'pl', String.raw`${S}${w('przejdz', 'przejdzcie', 'wejdz', 'wejdzcie', 'odwiedz', 'odwiedzcie', 'otworz')}\s+(?:\S+\s+)?${w('do', 'na', 'strone', 'adres', 'link')}${E}`),
  r('elsewhere', 'ru', String.raw`${S}${w('перейди', 'перейдите', 'зайди', 'зайдите', 'открой', 'откройте', 'посети', 'посетите', 'иди', 'идите')}\s+(?:\S+\s+)?${w('на', 'по', 'в', 'к', 'сайт', 'адрес', 'ссылку', 'страницу')}${E}`),
  r('elsewhere', 'tr', String.raw`${B}\S{2,}(?:y?[ea]|n[ea])\s+${w('git', 'gidin', 'gec', 'gecin')}\s*(?:$|[.!,;])`),
  r('elsewhere', 'tr', String.raw`${B}${w('ziyaret et', 'ziyaret edin', 'adresine git', 'sitesine git', 'sayfasina git')}${E}`),
  r('elsewhere', 'zh', '(?:请|务必|请先|请立即|请马上)(?:先)?(?:前往|转到|跳转到|访问|导航到|去(?!掉|除|重))'),
  r('elsewhere', 'zh', '(?:前往|转到|跳转到|访问|导航到)(?:其他|另一个|外部|别的|第三方)(?:网站|站点|网址|页面|链接)'),
  r('elsewhere', 'ja', '(?:に|へ)(?:移動|アクセス|遷移)(?:して(?:ください|下さい)|しろ|せよ|すること|しなさい)'),
  r('elsewhere', 'ja', `(?:サイト|ページ|url|リンク)(?:を)?開い${IMP_JA}`),
  r('elsewhere', 'ko', `(?:으로|로|에)\\s*(?:이동|접속|방문)(?:하)?${IMP_KO}`),

  // ---- action: which action to use ----
  r('action', 'en', String.raw`${B}(?:instead\s+of|rather\s+than)\s+(?:a\s+|the\s+|just\s+|simply\s+)?(?:tap(?:ping)?|click(?:ing)?|press(?:ing)?|long[\s-]?press(?:ing)?|swip(?:e|ing)|typ(?:e|ing)|scroll(?:ing)?|double[\s-]?click(?:ing)?|touch(?:ing)?|us(?:e|ing)\s+(?:the\s+)?(?:tap|click|mouse|keyboard))${E}`),
  r('action', 'en', String.raw`${B}(?:tapping|clicking|pressing|long[\s-]?pressing|swiping|typing|scrolling|double[\s-]?clicking|touching|a\s+(?:tap|click|press|long[\s-]?press|swipe|single\s+tap|single\s+click)|taps|clicks|(?:the\s+)?(?:tap|click|swipe|type)\s+action)\s+(?:(?:it|this|here|there|on\s+(?:it|this|here))\s+)?(?:(?:is|are|seems|may\s+be|can\s+be|has\s+been|gets|becomes)\s+(?:\w+\s+)?(?:unreliable|flaky|not\s+reliable|unstable|broken|blocked|ignored|unsupported|not\s+supported|not\s+allowed|forbidden|prohibited|discouraged|not\s+recommended|not\s+registered|detected|penali[sz]ed|flagged|useless)|(?:doesn'?t|does\s+not|won'?t|will\s+not|do\s+not|don'?t|never|rarely|often\s+fails\s+to|fails\s+to)\s+(?:\w+\s+)?(?:work|register|count|respond)|fails|misfires)${E}`),
  r('action', 'en', String.raw`${S}(?:only\s+)?(?:long[\s-]?press|press\s+and\s+hold|hold(?:\s+down)?|double[\s-]?(?:click|tap)|triple[\s-]?click|right[\s-]?click|tap|click|press|swipe|scroll|type|touch)\s+(?:(?:on\s+)?(?:it|this|here|that|the\s+\w+(?:\s+\w+)?)\s+)?(?:twice|thrice|once|again|instead|first|repeatedly|several\s+times|\d+\s+times|two\s+times|three\s+times|for\s+\d+\s*(?:seconds?|s|ms)|(?:rather|instead)\s+than|only)${E}(?!\s+to\s+(?!(?:make\s+(?:it|sure)|be\s+(?:safe|sure)|avoid)${E})\w)`),
  r('action', 'en', String.raw`${S}(?:use|try|prefer|choose|do|perform)\s+(?:a\s+|the\s+|only\s+)?(?:long[\s-]?press|press[\s-]and[\s-]hold|double[\s-]?(?:click|tap)|right[\s-]?click|swipe|keyboard|enter\s+key|javascript|(?:tap|click|type|swipe|long[\s-]?press|scroll)\s+action)(?:es|s)?${E}`),
  r('action', 'en', String.raw`${S}(?:do\s+not|don'?t|never|avoid|stop)\s+(?:\w+\s+)?(?:tap(?:ping)?|click(?:ing)?|press(?:ing)?|swip(?:e|ing)|scroll(?:ing)?|long[\s-]?press(?:ing)?|double[\s-]?click(?:ing)?|touch(?:ing)?|us(?:e|ing)\s+(?:the\s+)?(?:tap|click|mouse|keyboard|swipe))${E}`),
  r('action', 'en', String.raw`${B}(?:must|should|needs?\s+to|has\s+to|have\s+to|is\s+to)\s+be\s+(?:tapped|clicked|pressed|long[\s-]?pressed|double[\s-]?clicked|held|swiped|touched)\s+(?:twice|thrice|again|instead|first|repeatedly|several\s+times|\d+\s+times|for\s+\d+|rather\s+than|only\s+once|once)`),
  r('action', 'de', String.raw`${B}(?:an)?statt\s+(?:zu\s+)?${w('tippen', 'klicken', 'drucken', 'wischen', 'antippen', 'anklicken', 'zu tippen', 'zu klicken', 'einem klick', 'einem tippen')}${E}`),
  r('action', 'de', String.raw`${B}${w('tippen', 'klicken', 'antippen', 'anklicken', 'drucken', 'ein klick', 'ein tippen', 'das tippen', 'das klicken')}\s+(?:\S+\s+)?${w('ist unzuverlassig', 'ist nicht zuverlassig', 'funktioniert nicht', 'klappt nicht', 'ist unsicher', 'wird ignoriert', 'wird blockiert')}${E}`),
  r('action', 'de', String.raw`${S}${w('tippe', 'tippen sie', 'klicke', 'klicken sie', 'drucke', 'drucken sie', 'halte', 'halten sie')}\s+(?:\S+\s+){0,2}?${w('zweimal', 'doppelt', 'dreimal', 'einmal lange', 'lange', 'stattdessen', 'mehrmals')}${E}`),
  r('action', 'de', String.raw`${S}${w('nicht', 'nie', 'niemals')}\s+(?:\S+\s+)?${w('tippen', 'klicken', 'antippen', 'anklicken', 'wischen')}${E}`),
  r('action', 'de', String.raw`${S}${w('tippe', 'tippen sie', 'klicke', 'klicken sie', 'drucke', 'drucken sie')}\s+(?:\S+\s+)?${w('nicht', 'nie', 'niemals')}${E}`),
  r('action', 'fr', String.raw`${B}${w('au lieu de', 'plutot que de', 'plutot que')}\s+${w('toucher', 'taper', 'cliquer', 'appuyer', 'balayer', 'un clic', 'un appui')}${E}`),
  r('action', 'fr', String.raw`${B}${w('toucher', 'taper', 'cliquer', 'appuyer', 'un clic', 'le clic', 'un appui', 'le toucher')}\s+(?:\S+\s+)?${w("n'est pas fiable", 'est peu fiable', 'ne marche pas', 'ne fonctionne pas', 'est instable', 'est ignore')}${E}`),
  r('action', 'fr', String.raw`${S}${w('fais un appui long', 'faites un appui long', 'appuie longuement', 'appuyez longuement', 'double-clique', 'double-cliquez', 'clique deux fois', 'cliquez deux fois', 'appuie deux fois', 'appuyez deux fois', 'touche deux fois', 'touchez deux fois')}${E}`),
  r('action', 'fr', String.raw`${B}ne\s+(?:le\s+|la\s+|les\s+|l')?${w('touche', 'touchez', 'clique', 'cliquez', 'appuie', 'appuyez', 'tape', 'tapez')}\s+(?:\S+\s+)?${w('pas', 'jamais')}${E}`),
  r('action', 'es', String.raw`${B}${w('en lugar de', 'en vez de')}\s+${w('tocar', 'pulsar', 'hacer clic', 'presionar', 'teclear', 'deslizar', 'un toque', 'un clic')}${E}`),
  r('action', 'es', String.raw`${B}${w('tocar', 'pulsar', 'hacer clic', 'presionar', 'el toque', 'un toque', 'el clic', 'un clic')}\s+(?:\S+\s+)?${w('no es fiable', 'es poco fiable', 'no funciona', 'es inestable', 'no sirve', 'no es confiable')}${E}`),
  r('action', 'es', String.raw`${S}${w('manten pulsado', 'mantenga pulsado', 'manten presionado', 'mantenga presionado', 'toque', 'pulse', 'haz clic', 'haga clic')}\s+(?:\S+\s+)?${w('dos veces', 'una vez', 'tres veces', 'de nuevo', 'en su lugar', 'varias veces')}${E}`),
  r('action', 'es', String.raw`${S}no\s+(?:lo\s+|la\s+)?${w('toques', 'toque', 'pulses', 'pulse', 'hagas clic', 'haga clic', 'presiones', 'presione')}${E}`),
  r('action', 'it', String.raw`${B}${w('invece di', 'anziche')}\s+${w('toccare', 'premere', 'cliccare', 'fare clic', 'scorrere', 'un tocco', 'un clic')}${E}`),
  r('action', 'it', String.raw`${B}${w('toccare', 'premere', 'cliccare', 'il tocco', 'il clic', 'un clic', 'un tocco')}\s+(?:\S+\s+)?${w('non e affidabile', 'e inaffidabile', 'non funziona', 'e instabile', 'e poco affidabile')}${E}`),
  r('action', 'it', String.raw`${S}${w('tieni premuto', 'tenete premuto', 'toccate', 'premi', 'premete', 'cliccate')}\s+(?:\S+\s+)?${w('due volte', 'una volta', 'tre volte', 'di nuovo', 'invece', 'piu volte')}${E}`),
  r('action', 'it', String.raw`${S}(?:non|mai)\s+${w('toccare', 'premere', 'cliccare', 'fare clic')}${E}`),
  r('action', 'pt', String.raw`${B}${w('em vez de', 'ao inves de', 'no lugar de')}\s+${w('tocar', 'clicar', 'pressionar', 'carregar', 'deslizar', 'um toque', 'um clique')}${E}`),
  r('action', 'pt', String.raw`${B}${w('tocar', 'clicar', 'pressionar', 'o toque', 'o clique', 'um toque', 'um clique')}\s+(?:\S+\s+)?${w('nao e confiavel', 'nao funciona', 'e instavel', 'e pouco confiavel', 'falha')}${E}`),
  r('action', 'pt', String.raw`${S}${w('mantenha pressionado', 'toque', 'clique', 'pressione')}\s+(?:\S+\s+)?${w('duas vezes', 'uma vez', 'tres vezes', 'de novo', 'novamente', 'em vez disso')}${E}`),
  r('action', 'pt', String.raw`${S}(?:nao|nunca)\s+${w('toque', 'clique', 'pressione', 'toques', 'cliques')}${E}`),
  r('action', 'pl', String.raw`${B}zamiast\s+${w('klikac', 'klikniecia', 'dotykac', 'dotkniecia', 'stukac', 'stukniecia', 'naciskac', 'nacisniecia', 'przesuwac')}${E}`),
  r('action', 'pl', String.raw`${B}${w('klikniecie', 'dotkniecie', 'stukniecie', 'klikanie', 'dotykanie', 'nacisniecie')}\s+(?:\S+\s+)?${w('jest zawodne', 'nie dziala', 'jest niestabilne', 'jest niepewne')}${E}`),
  r('action', 'pl', String.raw`${S}${w('przytrzymaj', 'kliknij', 'dotknij', 'nacisnij', 'stuknij')}\s+(?:\S+\s+)?${w('dwa razy', 'dwukrotnie', 'raz', 'trzy razy', 'ponownie', 'zamiast')}${E}`),
  r('action', 'pl', String.raw`${S}(?:nie|nigdy\s+nie)\s+${w('klikaj', 'dotykaj', 'stukaj', 'naciskaj')}${E}`),
  r('action', 'ru', String.raw`${B}вместо\s+${w('нажатия', 'касания', 'клика', 'тапа', 'щелчка', 'того чтобы нажать', 'того чтобы кликнуть')}${E}`),
  r('action', 'ru', String.raw`${B}${w('нажатие', 'касание', 'клик', 'тап', 'щелчок')}\s+(?:\S+\s+)?${w('ненадежно', 'ненадежен', 'не работает', 'не срабатывает', 'нестабилен', 'нестабильно')}${E}`),
  r('action', 'ru', String.raw`${S}${w('удерживай', 'удерживайте', 'нажми', 'нажмите', 'кликни', 'кликните', 'коснись', 'коснитесь')}\s+(?:\S+\s+)?${w('дважды', 'два раза', 'один раз', 'три раза', 'снова', 'вместо', 'долго')}${E}`),
  r('action', 'ru', String.raw`${S}(?:не|никогда\s+не)\s+${w('нажимай', 'нажимайте', 'кликай', 'кликайте', 'трогай', 'трогайте')}${E}`),
  r('action', 'tr', String.raw`${B}${w('dokunmak yerine', 'tiklamak yerine', 'basmak yerine', 'dokunma yerine', 'tiklama yerine')}${E}`),
  r('action', 'tr', String.raw`${B}${w('dokunmak', 'tiklamak', 'dokunma', 'tiklama', 'basmak')}\s+(?:\S+\s+)?${w('guvenilir degil', 'guvenilmez', 'calismiyor', 'ise yaramiyor')}${E}`),
  r('action', 'tr', String.raw`${B}${w('uzun bas', 'uzun basin', 'iki kez dokun', 'iki kez tikla', 'iki kez tiklayin', 'cift tikla', 'cift tiklayin', 'tiklama', 'dokunma', 'tiklamayin', 'dokunmayin')}\s*(?:$|[.!,;])`),
  r('action', 'zh', '(?:而不是|而非|代替|替代|不要|(?<!\\p{Script=Han})别|请别|你别|千万别|切勿|避免)(?:直接)?(?:去)?(?:点击|点按|轻触|单击|轻点|点一下)'),
  r('action', 'zh', '(?:点击|点按|轻触|单击|轻点)(?:它|这里|此处)?(?:是|总是|经常|往往|会)?(?:不可靠|不稳定|不起作用|不管用|不好用|失灵|没用|会失败)'),
  r('action', 'zh', '(?:改为|改用|请用|请使用|应该用|应当用|要用|只能用|请|务必)(?:先)?(?:长按|双击|右键点击|右键|三击|滑动|按住)'),
  r('action', 'zh', '(?:请|要|务必|应该|必须|先)(?:先)?(?:长按|双击|点击|点按)(?:它)?(?:两次|三次|一次|\\d+次|\\d+秒)'),
  r('action', 'ja', '(?:タップ|クリック|押下|押す|押し|タッチ)(?:する)?(?:の)?(?:ではなく|代わりに|かわりに|せずに)'),
  r('action', 'ja', '(?:タップ|クリック|押下|タッチ)(?:は|が|では)(?:不安定|信頼できない|効かない|機能しない|うまくいかない|反応しない|無視され)'),
  r('action', 'ja', `(?:長押し|ダブルクリック|ダブルタップ|右クリック|(?:二|2|三|3)回(?:タップ|クリック))(?:を)?(?:して|し)?${IMP_JA}`),
  r('action', 'ja', `(?:タップ|クリック)(?:して|し)?は(?:いけない|いけません|ならない|なりません)|(?:タップ|クリック)しない(?:で(?:ください|下さい)|こと)`),
  r('action', 'ko', '(?:탭|클릭|터치|누르기)(?:하는\\s*것|하기)?\\s*대신'),
  r('action', 'ko', '(?:탭|클릭|터치)(?:은|는|이|가)\\s*(?:불안정|신뢰할\\s*수\\s*없|작동하지\\s*않|먹히지\\s*않)'),
  r('action', 'ko', `(?:길게\\s*누르|두\\s*번\\s*(?:탭하|클릭하|누르)|더블\\s*클릭하)(?:${IMP_KO}|십시오|세요)`),
  r('action', 'ko', `(?:탭|클릭|터치)(?:하지)?\\s*(?:마세요|마십시오|말\\s*것|마라)`),

  // ---- authority: orders, urgency ----
  r('authority', 'en', String.raw`${B}${AGENTS_EN}\s+(?:(?:always|also|then|now|really|strictly|all|each|every|here)\s+)?(?:must|should|shall|have\s+to|has\s+to|need\s+to|needs\s+to|are\s+(?:required|expected|supposed|obliged|instructed|asked|told|only\s+allowed|not\s+allowed|forbidden)\s+to|is\s+(?:required|expected|supposed|obliged|instructed|asked|told|not\s+allowed|forbidden)\s+to|may\s+only|may\s+not|can\s+only)${E}(?!\s+be${E})`),
  r('authority', 'en', String.raw`${B}(?:(?:site|website|shop|store|page|platform)(?:'s)?\s+)?(?:owners?|operators?|admins?|administrators?|webmasters?|management|policy|terms|developers?|staff)\s+(?:\w+\s+)?(?:requires?|demands?|insists?|instructs?|mandates?|orders?|wants?|expects?|asks?|tells?|forbids?|prohibits?|says?|requests?|has\s+asked|have\s+asked|need)\s+(?:that\s+)?(?:all\s+|any\s+|every\s+)?(?:${AGENTS_EN}|you|the\s+agent|the\s+assistant)${E}`),
  r('authority', 'en', String.raw`${B}(?:requires?|demands?|instructs?|mandates?|forces?|obliges?|expects?|asks?|tells?|wants?|orders?)\s+(?:all\s+|any\s+|every\s+)?${AGENTS_EN}\s+to${E}`),
  r('authority', 'en', String.raw`${B}(?:mandatory|compulsory|required|obligatory|forbidden|prohibited|essential|imperative)\s+for\s+(?:all\s+|any\s+)?(?:${AGENTS_EN}|you)${E}`),
  r('authority', 'en', String.raw`${S}you\s+(?:must|have\s+to|need\s+to|should|shall|are\s+(?:required|expected|supposed|obliged|instructed|asked|told)\s+to|ought\s+to|will\s+have\s+to|may\s+only|must\s+not|mustn'?t|should\s+not|shouldn'?t)\s+(?!(?:be|see|get|receive|notice|find|have\s+an?\s+account)${E}|(?:first\s+)?(?:log|sign)\s*-?\s*in${E}(?!\s+(?:with|using|as|via)))`),
  r('authority', 'en', String.raw`${S}(?:always|never|under\s+no\s+circumstances|at\s+all\s+times|whatever\s+happens|in\s+all\s+cases)\s*,?\s+(?:\w+\s+)?${VERB_EN}`),
  r('authority', 'en', String.raw`${S}you\s+(?:always|never)\s+${VERB_EN}`),
  r('authority', 'en', String.raw`${S}(?:immediately|urgently|right\s+now|now|quickly|asap|at\s+once|without\s+delay)\s*,?\s+${VERB_EN}`),
  r('authority', 'en', String.raw`${S}${VERB_EN}\s*(?:[^\s.!?;:,]+\s+){0,4}?(?:immediately|right\s+away|right\s+now|at\s+once|asap|as\s+soon\s+as\s+possible|without\s+delay|without\s+hesitation|urgently|no\s+matter\s+what)${E}`),
  r('authority', 'en', String.raw`${S}(?:act\s+now|hurry(?:\s+up)?|do\s+it\s+now|do\s+not\s+wait|don'?t\s+wait|no\s+time\s+to\s+(?:lose|waste))${E}`),
  r('authority', 'en', String.raw`(?:^|[.!?;]\s*)(?:urgent|attention|important\s+for\s+(?:${AGENTS_EN})|mandatory|required\s+by\s+the\s+site)\s*[:!]`),
  r('authority', 'en', String.raw`${B}(?:this\s+is|it'?s|it\s+is)\s+(?:very\s+|extremely\s+)?(?:urgent|critical|mandatory|compulsory)${E}`),
  r('authority', 'de', String.raw`${B}${w('agenten', 'ki-agenten', 'ki agenten', 'ki', 'bots', 'assistenten', 'ki-assistenten', 'sprachmodelle', 'das modell', 'automatisierte')}\s+(?:\S+\s+)?${w('mussen', 'muss', 'sollen', 'sollten', 'durfen nicht', 'durfen nur', 'haben zu', 'sind verpflichtet')}${E}`),
  r('authority', 'de', String.raw`${B}${w('betreiber', 'seitenbetreiber', 'der betreiber', 'inhaber', 'admin', 'administrator', 'eigentumer', 'website-betreiber', 'shopbetreiber')}\s+(?:\S+\s+){0,2}?${w('verlangt', 'fordert', 'schreibt vor', 'will', 'wunscht', 'verbietet', 'verpflichtet', 'erwartet')}\s+(?:\S+\s+){0,2}?${w('agenten', 'ki', 'bots', 'assistenten', 'dass du', 'dass sie', 'von dir', 'von ihnen', 'dich', 'sie')}${E}`),
  r('authority', 'de', String.raw`${B}${w('du musst', 'sie mussen', 'du sollst', 'sie sollen', 'du solltest', 'sie sollten', 'du darfst nicht', 'sie durfen nicht')}${E}(?!(?:\s+\S+){0,4}\s+${w('sein', 'angemeldet', 'eingeloggt', 'registriert')}${E})`),
  r('authority', 'de', String.raw`${S}${w('immer', 'nie', 'niemals', 'sofort', 'unverzuglich', 'unbedingt', 'auf keinen fall')}\s+(?:\S+\s+){0,3}?${w('tippen', 'klicken', 'drucken', 'wahlen', 'verwenden', 'benutzen', 'nutzen', 'eingeben', 'bestatigen', 'fragen', 'offnen', 'kaufen', 'bezahlen', 'tippe', 'klicke', 'drucke', 'wahle', 'verwende', 'benutze', 'nutze', 'gib', 'frage', 'offne', 'kaufe', 'bezahle')}${E}`),
  r('authority', 'de', String.raw`${S}${w('tippe', 'tippen sie', 'klicke', 'klicken sie', 'drucke', 'drucken sie', 'wahle', 'wahlen sie', 'verwende', 'verwenden sie', 'benutze', 'nutze', 'gib', 'geben sie', 'frage', 'offne', 'kaufe', 'bezahle')}\s+(?:\S+\s+){0,3}?${w('immer', 'nie', 'niemals', 'sofort', 'unverzuglich', 'unbedingt')}${E}`),
  r('authority', 'fr', String.raw`${B}${w('les agents', 'agents', 'les assistants', 'les bots', 'les robots', "l'ia", 'les ia', "l'agent", 'le modele', "l'assistant")}\s+(?:\S+\s+)?${w('doivent', 'doit', 'devront', 'sont tenus de', 'est tenu de', 'ne doivent', 'ne doit')}${E}`),
  r('authority', 'fr', String.raw`${B}${w('le proprietaire', 'proprietaire', "l'administrateur", "l'exploitant", 'le gestionnaire', 'le webmaster', 'le responsable')}\s+(?:\S+\s+){0,3}?${w('exige', 'demande', 'impose', 'ordonne', 'interdit', 'veut', 'oblige')}\s+(?:\S+\s+){0,2}?${w('agents', 'ia', 'bots', 'assistants', 'robots', 'que vous', 'que tu', 'vous', 'tu')}${E}`),
  r('authority', 'fr', String.raw`${B}${w('tu dois', 'vous devez', 'il faut que tu', 'il faut que vous', 'tu ne dois', 'vous ne devez')}${E}(?!\s+(?:${w('etre', 'avoir un compte', 'etre connecte', 'etre connectee')})${E})`),
  r('authority', 'fr', String.raw`${S}${w('toujours', 'jamais', 'immediatement', 'tout de suite', 'sans attendre', 'surtout')}\s+(?:\S+\s+)?${w('appuyer', 'appuyez', 'cliquer', 'cliquez', 'toucher', 'touchez', 'taper', 'tapez', 'choisir', 'choisis', 'choisissez', 'utiliser', 'utilisez', 'selectionner', 'selectionnez', 'payer', 'payez', 'accepter', 'acceptez', 'confirmer', 'confirmez', 'demander', 'demandez')}${E}`),
  r('authority', 'fr', String.raw`${S}(?:ne\s+|n')?${w('appuyez', 'cliquez', 'touchez', 'tapez', 'choisis', 'choisissez', 'utilisez', 'selectionnez', 'payez', 'acceptez', 'confirmez')}\s+(?:\S+\s+){0,2}?${w('toujours', 'jamais', 'immediatement', 'tout de suite', 'sans attendre')}${E}`),
  r('authority', 'es', String.raw`${B}${w('los agentes', 'agentes', 'los asistentes', 'los bots', 'la ia', 'el agente', 'el modelo', 'el asistente')}\s+(?:\S+\s+)?${w('deben', 'debe', 'tienen que', 'tiene que', 'estan obligados a', 'no deben', 'no debe')}${E}`),
  r('authority', 'es', String.raw`${B}${w('el propietario', 'propietario', 'el dueño', 'dueño', 'el administrador', 'el responsable', 'el operador')}\s+(?:\S+\s+){0,3}?${w('exige', 'requiere', 'pide', 'ordena', 'prohibe', 'quiere', 'obliga')}\s+(?:\S+\s+){0,2}?${w('agentes', 'ia', 'bots', 'asistentes', 'que', 'te', 'le')}${E}`),
  r('authority', 'es', String.raw`${B}${w('debes', 'tienes que', 'usted debe', 'debe usted', 'tiene usted que', 'no debes')}${E}(?!\s+(?:${w('estar', 'ser', 'tener una cuenta', 'iniciar sesion', 'haber iniciado')})${E})`),
  r('authority', 'es', String.raw`${S}${w('siempre', 'nunca', 'jamas', 'inmediatamente', 'de inmediato', 'ya', 'enseguida')}\s+(?:\S+\s+)?${w('pulse', 'pulses', 'toque', 'toques', 'haz clic', 'haga clic', 'hagas clic', 'use', 'uses', 'elija', 'elijas', 'seleccione', 'pagues', 'pague', 'acepte', 'confirme', 'preguntes', 'pregunte')}${E}`),
  r('authority', 'es', String.raw`${S}${w('pulse', 'toque', 'haz clic', 'haga clic', 'use', 'elija', 'seleccione', 'pague', 'acepte', 'confirme')}\s+(?:\S+\s+){0,2}?${w('siempre', 'inmediatamente', 'de inmediato', 'enseguida', 'ya mismo', 'sin esperar')}${E}`),
  r('authority', 'it', String.raw`${B}${w('gli agenti', 'agenti', 'gli assistenti', 'i bot', "l'ia", "l'agente", 'il modello', "l'assistente")}\s+(?:\S+\s+)?${w('devono', 'deve', 'dovranno', 'sono tenuti a', 'e tenuto a', 'non devono', 'non deve')}${E}`),
  r('authority', 'it', String.raw`${B}${w('il proprietario', 'proprietario', "l'amministratore", 'il gestore', 'il titolare', 'il webmaster')}\s+(?:\S+\s+){0,3}?${w('richiede', 'esige', 'chiede', 'impone', 'vieta', 'vuole', 'obbliga')}\s+(?:\S+\s+){0,2}?${w('agenti', 'ia', 'bot', 'assistenti', 'che tu', 'che voi', 'di', 'ti', 'vi')}${E}`),
  r('authority', 'it', String.raw`${B}${w('devi', 'dovete', 'non devi', 'non dovete')}${E}(?!\s+(?:${w('essere', 'avere un account', 'aver effettuato')})${E})`),
  r('authority', 'it', String.raw`${S}${w('sempre', 'mai', 'subito', 'immediatamente')}\s+(?:\S+\s+)?${w('premi', 'premere', 'toccare', 'cliccare', 'usare', 'scegli', 'scegliere', 'selezionare', 'pagare', 'accettare', 'confermare', 'chiedere', 'chiedi')}${E}`),
  r('authority', 'pt', String.raw`${B}${w('os agentes', 'agentes', 'os assistentes', 'os bots', 'a ia', 'o agente', 'o modelo', 'o assistente')}\s+(?:\S+\s+)?${w('devem', 'deve', 'tem que', 'precisam', 'sao obrigados a', 'nao devem', 'nao deve')}${E}`),
  r('authority', 'pt', String.raw`${B}${w('o dono', 'dono', 'o proprietario', 'proprietario', 'o administrador', 'o responsavel', 'o operador')}\s+(?:\S+\s+){0,3}?${w('exige', 'requer', 'pede', 'ordena', 'proibe', 'quer', 'obriga')}\s+(?:\S+\s+){0,2}?${w('agentes', 'ia', 'bots', 'assistentes', 'que', 'voce', 'te')}${E}`),
  r('authority', 'pt', String.raw`${B}${w('voce deve', 'voce precisa', 'voce tem que', 'tu deves', 'deves', 'voce nao deve')}${E}(?!\s+(?:${w('estar', 'ser', 'ter uma conta', 'fazer login', 'iniciar sessao')})${E})`),
  r('authority', 'pt', String.raw`${S}${w('sempre', 'nunca', 'jamais', 'imediatamente', 'ja')}\s+(?:\S+\s+)?${w('toque', 'clique', 'pressione', 'use', 'escolha', 'selecione', 'pague', 'aceite', 'confirme', 'pergunte', 'toques', 'cliques')}${E}`),
  r('authority', 'pl', String.raw`${B}${w('agenci', 'agent', 'asystenci', 'boty', 'ai', 'model', 'asystent')}\s+(?:\S+\s+)?${w('musza', 'musi', 'powinni', 'powinien', 'maja obowiazek', 'nie moga', 'nie moze')}${E}`),
  r('authority', 'pl', String.raw`${B}${w('własciciel', 'wlasciciel', 'administrator', 'operator')}\s+(?:\S+\s+){0,3}?${w('wymaga', 'zada', 'nakazuje', 'prosi', 'zabrania', 'chce')}\s+(?:\S+\s+){0,2}?${w('agentow', 'agenci', 'botow', 'ai', 'asystentow', 'abys', 'zebys', 'od ciebie')}${E}`),
  r('authority', 'pl', String.raw`${B}${w('musisz', 'musicie', 'powinienes', 'powinnas', 'nie wolno ci')}${E}(?!\s+(?:${w('byc', 'miec konto', 'zalogowac sie', 'byc zalogowany')})${E})`),
  r('authority', 'pl', String.raw`${S}${w('zawsze', 'nigdy', 'natychmiast', 'od razu', 'koniecznie')}\s+(?:nie\s+)?(?:\S+\s+)?${w('klikaj', 'kliknij', 'naciskaj', 'nacisnij', 'uzywaj', 'uzyj', 'wybieraj', 'wybierz', 'dotknij', 'dotykaj', 'placz', 'zaplac', 'akceptuj', 'zaakceptuj', 'potwierdz', 'pytaj', 'zapytaj')}${E}`),
  r('authority', 'ru', String.raw`${B}${w('агенты', 'агент', 'ассистенты', 'ассистент', 'боты', 'бот', 'ии', 'модель', 'нейросеть')}\s+(?:\S+\s+)?${w('должны', 'должен', 'обязаны', 'обязан', 'не должны', 'не должен', 'могут только', 'может только')}${E}`),
  r('authority', 'ru', String.raw`${B}${w('владелец', 'администратор', 'администрация', 'оператор', 'владельцы')}\s+(?:\S+\s+){0,3}?${w('требует', 'требуют', 'просит', 'просят', 'запрещает', 'обязывает', 'велит', 'хочет')}\s+(?:\S+\s+){0,2}?${w('агентов', 'агентам', 'ботов', 'ботам', 'ии', 'ассистентов', 'чтобы', 'вас', 'тебя', 'от вас')}${E}`),
  r('authority', 'ru', String.raw`${B}${w('ты должен', 'ты должна', 'вы должны', 'тебе нужно', 'вам нужно', 'тебе надо', 'вам надо', 'вы обязаны', 'ты обязан')}${E}(?!\s+(?:${w('быть', 'войти', 'авторизоваться', 'иметь аккаунт')})${E})`),
  r('authority', 'ru', String.raw`${S}${w('всегда', 'никогда', 'немедленно', 'срочно', 'сразу', 'обязательно')}\s+(?:не\s+)?(?:\S+\s+)?${w('нажимай', 'нажимайте', 'нажми', 'нажмите', 'используй', 'используйте', 'выбирай', 'выбирайте', 'выбери', 'выберите', 'кликай', 'кликни', 'кликните', 'плати', 'оплати', 'оплатите', 'подтверждай', 'подтверди', 'подтвердите', 'спрашивай', 'соглашайся', 'соглашайтесь')}${E}`),
  r('authority', 'tr', String.raw`${B}${w('ajanlar', 'ajan', 'asistanlar', 'botlar', 'yapay zeka')}\s+(?:\S+\s+){0,5}?\S*(?:mali|meli|malidir|melidir|zorundadir|zorunda)${E}`),
  r('authority', 'tr', String.raw`${B}${w('site sahibi', 'sahibi', 'yonetici', 'site yoneticisi', 'isletmeci')}\s+(?:\S+\s+){0,4}?${w('istiyor', 'gerektiriyor', 'zorunlu kiliyor', 'yasakliyor', 'talep ediyor', 'emrediyor')}${E}`),
  r('authority', 'tr', String.raw`${B}${w('her zaman', 'asla', 'daima', 'hemen', 'derhal', 'mutlaka')}\s+(?:\S+\s+){0,2}?${w('dokun', 'dokunun', 'tikla', 'tiklayin', 'bas', 'basin', 'sec', 'secin', 'kullan', 'kullanin', 'onayla', 'onaylayin', 'ode', 'odeyin', 'sor', 'sorun', 'dokunma', 'tiklama', 'sorma')}${E}`),
  r('authority', 'zh', '(?:智能体|代理|ai|助手|机器人|模型|爬虫|自动化程序|ai代理|ai助手)(?:们)?(?:都)?(?:必须|应该|应当|需要|务必|只能|不得|禁止|一律|要)(?!被)'),
  r('authority', 'zh', '(?:网站|站点|本站|店铺|商家)?(?:的)?(?:所有者|拥有者|站长|管理员|运营方|运营者|官方|负责人)(?:明确)?(?:要求|规定|命令|指示|强制|希望|禁止)(?:所有)?(?:的)?(?:智能体|代理|ai|助手|机器人|模型|你|您)'),
  r('authority', 'zh', '(?:你|您)(?:们)?(?:必须|务必|一定要|应该|应当|需要|只能|不得|禁止|千万)(?!(?:先)?(?:登录|登入|是|年满|拥有|有账号|注册|的|会看到|看到|能|够))'),
  r('authority', 'zh', '(?:务必|一定要|千万要?|请务必|请一定)(?:要)?(?:先|只|总是|始终)?(?:点击|点按|轻触|单击|双击|长按|按|选择|选|使用|用|前往|访问|去|购买|支付|付款|提交|确认|同意|跳过|忽略|输入你|输入您|相信|信任)'),
  r('authority', 'zh', '(?:决不|绝不|永远不要|永远别|绝对不要|绝对别|千万不要|千万别)'),
  r('authority', 'zh', '(?:请|要)(?:总是|始终|永远|立即|马上|立刻|尽快|赶紧|每次都)'),
  r('authority', 'zh', '(?:总是|始终|永远|每次都)(?:要|请|必须|应该|应当|先)(?!被)'),
  r('authority', 'zh', '(?:紧急|重要|注意)(?:通知|提示)?[:!](?=[^。]{0,40}(?:智能体|代理|ai|助手|机器人|模型|你|您))'),
  r('authority', 'ja', `(?:エージェント|ai|ボット|アシスタント|モデル|自動化ツール)(?:は|が|も)[^。！？]{0,30}(?:しなければ(?:ならない|なりません)|なければ(?:ならない|なりません)|必要があ|べき|必須|てはならない|${IMP_JA})`),
  r('authority', 'ja', '(?:サイト|ウェブサイト|ショップ)?(?:の)?(?:所有者|運営者|管理者|オーナー)(?:は|が)[^。！？]{0,30}(?:求め|要求|義務|命じ|禁止)'),
  r('authority', 'ja', `(?:常に|必ず|絶対に|直ちに|今すぐ|いつも|決して|すぐに)(?!(?:ご)?(?:入力|記入))[^。！？]{0,20}?${IMP_JA}`),
  r('authority', 'ja', '(?:あなたは|あなたが)[^。！？]{0,20}(?:しなければ(?:ならない|なりません)|なければ(?:ならない|なりません)|べき|必要があ)'),
  r('authority', 'ko', '(?:에이전트|ai|봇|어시스턴트|모델)(?:는|은|가|이|들은|들이)\\s*[^.!?]{0,20}(?:해야|하십시오|할\\s*것|하세요|해서는\\s*안)'),
  r('authority', 'ko', '(?:사이트|웹사이트)?\\s*(?:소유자|운영자|관리자|주인)(?:가|는|이|은)\\s*[^.!?]{0,30}(?:요구|요청|명령|금지)'),
  r('authority', 'ko', `(?:항상|절대|반드시|즉시|당장|무조건|절대로)\\s*[^.!?]{0,15}?${IMP_KO}`),
  r('authority', 'ko', '(?:당신은|너는|귀하는)\\s*[^.!?]{0,20}(?:해야|하십시오|하세요)'),
];

/** The URLs a note names (with a scheme, or starting "www."). */
const URLS = /(?:https?:\/\/|www\.)[^\s"'<>()[\]{}，。、]+/g;

/** A bare domain name ("evil.example", "pay-now.com") with a common top-level domain (not "index.html", "node.js"). */
const DOMAINS = /(?<![\p{L}\p{N}_@./-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|net|org|io|co|info|biz|xyz|top|app|dev|site|online|shop|store|link|click|example|ai|gg|ly|cc|tk|ru|cn|uk|fr|nl|pl|br|jp|kr|eu|ca|au|ch|se|de|es|tr)(?![\p{L}\p{N}_@-]|\.[a-z0-9])/gu;

/** The origin a URL in a note points to, or null when it is not one. */
function urlOrigin(u: string): string | null {
  try {
    return new URL(u.startsWith('www.') ? `https://${u}` : u).origin;
  } catch {
    return null;
  }
}

/** The site's host without "www.", or null. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** The same site: the same host or one under it ("help.shop.example"), "www." or not, on http or https. */
function sameSite(host: string | null, siteHost: string | null): boolean {
  return !!host && !!siteHost && (host === siteHost || host.endsWith(`.${siteHost}`));
}

/** 13–19 digits (spaces or dashes between) that pass the Luhn check: a payment card number. */
function cardNumber(text: string): string | null {
  for (const m of text.matchAll(/(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g)) {
    const digits = m[0].replace(/\D/g, '');
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    if (sum % 10 === 0 && !/^(\d)\1+$/.test(digits)) return m[0];
  }
  return null;
}

/** The first match of a sticky pattern at one of the places given. */
function stickyAt(re: RegExp, text: string, at: number[]): RegExpExecArray | null {
  for (const i of at) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m) return m;
  }
  return null;
}

/**
 * Why one text of a note tells the agent how to behave, or null when it only describes. `origin`:
 * the entry's site, whose own URLs the text may name (without it every URL is another site).
 */
export function noteRuleHit(text: string, origin?: string): NoteRuleHit | null {
  if (!text || !text.trim()) return null;
  const folded = foldNote(text);
  const card = cardNumber(folded);
  let starts: number[] | undefined;
  for (const kind of NOTE_RULE_KINDS) {
    if (kind === 'secret' && card) return { kind, phrase: card.slice(0, 80) };
    if (kind === 'elsewhere') {
      const site = origin ? hostOf(origin) : null;
      for (const [u] of folded.matchAll(URLS)) {
        const o = urlOrigin(u);
        if (!sameSite(o && hostOf(o), site)) return { kind, phrase: u.slice(0, 80) };
      }
      for (const [d] of folded.replace(URLS, ' ').matchAll(DOMAINS)) {
        if (!sameSite(d.replace(/^www\./, ''), site)) return { kind, phrase: d.slice(0, 80) };
      }
    }
    for (const rule of RULES) {
      if (rule.kind !== kind) continue;
      const m = rule.atStart ? stickyAt(rule.re, folded, starts ??= commandStarts(folded)) : rule.re.exec(folded);
      if (m) return { kind, phrase: m[0].trim().slice(0, 80) };
    }
  }
  return null;
}

/** The languages the rules are written in (for the docs and the tests). */
export const NOTE_RULE_LANGUAGES: readonly string[] = [...new Set(RULES.map((x) => x.lang).filter((l) => l !== 'any'))];
