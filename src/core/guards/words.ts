/**
 * The text rules' phrases (payment, delete, send), per language, and how a phrase matches a text.
 * Every language's list applies to every page (a page does not say reliably what language its
 * buttons are in); the language decides where in the text its phrases may stand:
 * - English, French, Spanish, German ("word"): anywhere as whole words ("Delete project",
 *   "Yes, delete my account", "Supprimer le courriel", "Nachricht löschen", "Jetzt kaufen"; not
 *   "Deleted items", "Gelöscht", "Zahlungsarten"), except right after a negation ("Do not delete",
 *   "Ne pas envoyer", "Nicht löschen") or a French object pronoun ("Lui envoyer un courriel" is
 *   the link to a user's e-mail form, "Send him an e-mail"); and with the little words between a
 *   phrase's words left out of both ("Place my order" is "place order", "Close the account" is
 *   "close account"; never for "=phrase");
 * - Chinese, Japanese ("anywhere"): anywhere in the text, there are no spaces between words
 *   ("立即购买", "メッセージを削除").
 * Text and phrases are both folded the same way before they are compared (foldGuardText,
 * fold-text.ts), so a list saved by the person keeps working: NFKC (full-width letters to ASCII);
 * zero-width characters, soft hyphens and bidi controls dropped; accents and other combining marks
 * dropped from Latin, Cyrillic and Greek letters (not the dakuten of Japanese kana); Cyrillic and
 * Greek look-alike letters read as Latin ones; Traditional Chinese characters read as Simplified
 * (han-simplified.ts); "&" and "+" between words read as "and"; case, "ß" and spaces folded. So
 * "Ｐｌａｃｅ ｏｒｄｅｒ", "Pla\u200bce order" (a zero-width space), "Confirm & pay", "De\u00adlete" and
 * "立即購買" are "place order", "place order", "confirm and pay", "delete" and "立即购买".
 * A text ending in a question mark is exempt only when it reads as a question (isQuestion: a
 * question word, a Japanese か / Chinese 吗 before the mark, or more than six words): "How do I
 * delete my account?" and "如何删除账户？" ask about an action, "Delete account?" does it.
 * An entry "=phrase" must be the whole text ("=confirm": "Confirm", not "Confirm email address").
 * An entry "-phrase" is a look-alike: a phrase standing inside it does not count ("-支付方式" keeps
 * "支付方式" (payment methods) out of 支付, "-送信済" keeps "送信済み" (sent) out of 送信).
 * Lists were tuned against test/fixtures/guards/ (real pages' buttons; see its README). They leave
 * out plain form-submit words ("Submit", "提交", "Einreichen", "Soumettre"): a form is judged by
 * what it holds, not by its button's generic word.
 */

import { foldGuardText } from '../fold-text';

export { foldGuardText };

export type GuardLang = 'en' | 'zh' | 'de' | 'fr' | 'es' | 'ja';
export const GUARD_LANGS: GuardLang[] = ['en', 'zh', 'de', 'fr', 'es', 'ja'];
/** Each language's name for the person: a message key (public/_locales). */
export const GUARD_LANG_KEYS: Record<GuardLang, string> = { en: 'langEn', zh: 'langZh', de: 'langDe', fr: 'langFr', es: 'langEs', ja: 'langJa' };

type Mode = 'word' | 'anywhere';
const MODES: Record<GuardLang, Mode> = { en: 'word', fr: 'word', es: 'word', de: 'word', zh: 'anywhere', ja: 'anywhere' };

export type Phrases = Record<GuardLang, string[]>;
export type TextRuleId = 'payment' | 'delete' | 'send';

export const DEFAULT_PHRASES: Record<TextRuleId, Phrases> = {
  payment: {
    en: ['pay', 'pay now', 'place order', 'place your order', 'buy now', 'buy', 'purchase', 'complete purchase', 'complete order', 'confirm order', 'confirm purchase', 'confirm and pay', 'submit order', 'subscribe', 'donate',
      'checkout', 'check out', 'proceed to checkout', 'go to checkout', 'continue to checkout', 'order now', 'complete checkout', 'continue to payment', 'proceed to payment', '=confirm', '=paypal', 'paypal checkout', '=apple pay', '=google pay', 'start subscription', 'upgrade now'],
    zh: ['购买', '立即购买', '支付', '立即支付', '确认支付', '付款', '立即付款', '确认付款', '提交订单', '下单', '结算', '结账', '订阅', '捐赠', '充值', '-支付方式', '-付款方式', '-购买记录', '-已购买', '-已支付', '-已付款', '-支付宝账', '-结算方式'],
    de: ['bezahlen', 'zahlen', 'kaufen', 'bestellen', 'bestellung abschicken', 'bestellung aufgeben', 'zur kasse', 'abonnieren', 'spenden'],
    fr: ['payer', 'acheter', 'commander', 'passer la commande', 'passer commande', 'valider la commande', 'valider ma commande', 'confirmer la commande', 'finaliser la commande', 'procéder au paiement', 'continuer vers le paiement', "s'abonner", 'faire un don'],
    es: ['pagar', 'comprar', 'realizar pedido', 'realizar el pedido', 'finalizar compra', 'finalizar pedido', 'confirmar pedido', 'confirmar compra', 'tramitar pedido', 'ir a pagar', 'proceder al pago', 'continuar al pago', 'suscribirse', 'donar'],
    ja: ['購入', '注文する', '注文を確定', '注文確定', '支払う', 'お支払い', '支払いへ', 'レジに進む', '決済する', '購読', '寄付', '-購入履歴', '-購買履歴', '-注文履歴', '-購入済', '-支払い方法', '-お支払い方法', '-決済方法'],
  },
  delete: {
    en: ['delete', 'remove', 'erase', 'destroy', 'discard', 'move to trash', 'move message to trash', 'move messages to trash', 'empty trash', 'permanently delete', 'close account', 'close my account', 'clear all', 'clear history', 'deactivate account', 'purge', 'wipe', '=empty'],
    zh: ['删除', '永久删除', '彻底删除', '移除', '清空', '注销账号', '注销账户', '移至回收站', '移到回收站', '移至资源回收筒', '移到资源回收筒', '移至垃圾桶', '移到垃圾桶', '移至已删除', '丢弃', '-已删除', '-被删除', '-删除记录'],
    de: ['löschen', 'entfernen', 'leeren', 'verwerfen', 'konto schließen', 'in den papierkorb'],
    fr: ['supprimer', 'effacer', 'retirer', 'vider', 'fermer le compte', 'fermer mon compte', 'mettre à la corbeille', 'placer dans la corbeille', 'déplacer vers la corbeille', 'déplacer dans la corbeille', 'déplacer le courriel vers la corbeille', 'déplacer les courriels vers la corbeille'],
    es: ['eliminar', 'borrar', 'quitar', 'vaciar', 'descartar', 'cerrar cuenta', 'cerrar mi cuenta', 'mover a la papelera', 'mover mensaje a la papelera', 'mover mensajes a la papelera'],
    ja: ['削除', '消去', 'ごみ箱に移動', 'ゴミ箱に移動', 'ごみ箱へ移動', 'ゴミ箱へ移動', '空にする', '=空', '破棄', '退会', '-削除済', '-削除された'],
  },
  send: {
    en: ['send', 'post', 'publish', 'tweet', 'reply all', 'submit comment', 'share now', 'submit for review', 'submit for approval', 'reply', 'comment', 'share', 'add comment', 'resend', '-reply-to'],
    zh: ['发送', '重发', '发布', '发表', '回复', '发表评论', '提交评论', '发布评论', '分享', '传送', '提请审批', '提交审核', '提交审批', '-已发送', '-已提交', '-已发布', '-已回复', '-已传送', '-发送日期', '-发送时间', '-传送日期', '-传送时间'],
    de: ['senden', 'absenden', 'abschicken', 'veröffentlichen', 'posten', 'antworten', 'kommentieren', 'teilen', 'zur revision vorlegen', 'zur prüfung vorlegen', 'zur prüfung einreichen', 'zur freigabe einreichen'],
    fr: ['envoyer', 'renvoyer', 'publier', 'répondre', 'commenter', 'laisser un commentaire', 'partager', 'soumettre à relecture', 'soumettre pour relecture', 'soumettre pour révision', 'poster'],
    es: ['enviar', 'publicar', 'responder', 'comentar', 'compartir'],
    ja: ['送信', '再送', '投稿する', '=投稿', 'を投稿', '公開', '返信', 'コメントする', '共有', 'シェア', '-送信済', '-送信日', '-予約投稿', '-公開済', '-返信済', '-投稿日', '-公開日', '-非公開'],
  },
};

/** The English lists saved before phrases were per language: a saved list equal to one is not an edit. */
export const OLD_DEFAULT_WORDS: Record<TextRuleId, string[]> = {
  payment: ['pay', 'pay now', 'place order', 'place your order', 'buy now', 'buy', 'purchase', 'complete purchase', 'complete order', 'confirm order', 'confirm purchase', 'confirm and pay', 'submit order', 'subscribe', 'donate'],
  delete: ['delete', 'remove', 'erase', 'destroy', 'discard', 'trash', 'move to trash', 'empty trash', 'permanently delete'],
  send: ['send', 'post', 'publish', 'tweet', 'reply all', 'submit comment', 'share now'],
};

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const LETTER = /[\p{L}\p{N}_]/u;

/** `phrase` stands in `text` at `at` with a word boundary before and after. */
function boundedAt(text: string, phrase: string, at: number): boolean {
  return (at === 0 || !LETTER.test(text.charAt(at - 1))) && (at + phrase.length === text.length || !LETTER.test(text.charAt(at + phrase.length)));
}

/** Where `phrase` stands in `text` by `mode`: [start, end) of each place. */
function places(text: string, phrase: string, mode: Mode): [number, number][] {
  if (!phrase) return [];
  const cjk = mode === 'anywhere' || CJK.test(phrase);
  const out: [number, number][] = [];
  for (let at = text.indexOf(phrase); at >= 0; at = text.indexOf(phrase, at + 1)) {
    if (cjk || boundedAt(text, phrase, at)) out.push([at, at + phrase.length]);
  }
  return out;
}

/**
 * Words that, right before a phrase, say the text does not give that order: a negation ("do not
 * delete", "ne pas envoyer", "no borrar", "nicht löschen"), or a French indirect-object pronoun
 * before an infinitive ("lui envoyer un courriel": a link to someone's e-mail form). Folded.
 */
const NOT_AN_ORDER = /(?:^|\s)(?:do not|does not|don't|dont|not|never|no need to|without|ne pas|ne jamais|sans|jamais|lui|leur|no|sin|nunca|nicht|ohne|kein|keine|keinen|nie)\s$/u;

/**
 * The little words a phrase's words may have between them in a label (articles, possessives,
 * demonstratives), folded, in the four spaced languages: "place my order", "close the account",
 * "vider la corbeille", "borrar mi cuenta". Left out of the text and of the phrases alike.
 */
const FILLERS = new Set(['my', 'your', 'our', 'the', 'this', 'that', 'these', 'those', 'his', 'her', 'their', 'its', 'a', 'an', 'it',
  'mon', 'ma', 'mes', 'ton', 'ta', 'tes', 'votre', 'vos', 'notre', 'nos', 'le', 'la', 'les', "l'", 'un', 'une', 'ce', 'cet', 'cette', 'ces',
  'mi', 'mis', 'tu', 'tus', 'su', 'sus', 'nuestro', 'nuestra', 'el', 'los', 'las', 'una', 'este', 'esta', 'estos', 'estas',
  'mein', 'meine', 'meinen', 'dein', 'deine', 'ihr', 'ihre', 'ihren', 'unser', 'unsere', 'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'einen']);

/** A folded text without its little words (FILLERS); the same text when it has none. */
function withoutFillers(folded: string): string {
  return folded.split(' ').filter((w) => !FILLERS.has(w)).join(' ');
}

/** Folded text without its leading and trailing symbols ("🗑 Delete", "Checkout →", "Place order?"). */
function bare(folded: string): string {
  return folded.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[^\p{L}\p{N}]+$/u, '');
}

/** Words that open a question, folded (accents dropped), in the six languages; each stands as a whole word. */
const QUESTION_WORDS = [
  // English
  'how', 'what', 'why', 'when', 'where', 'which', 'who', 'whom', 'whose', 'can', 'could', 'do', 'does', 'did', 'is', 'are', 'was', 'were',
  'should', 'would', 'will', 'shall', 'may', 'might', 'must', 'have', 'has', 'am', "can't", "don't", "doesn't", "isn't", "aren't", "won't", "shouldn't",
  // German
  'wie', 'was', 'warum', 'wieso', 'weshalb', 'wann', 'wo', 'woher', 'wohin', 'wer', 'wen', 'wem', 'welche', 'welcher', 'welches', 'welchen',
  'kann', 'kannst', 'konnen', 'konnte', 'darf', 'soll', 'sollte', 'muss', 'ist', 'sind', 'gibt', 'hat', 'habe', 'haben',
  // French
  'comment', 'pourquoi', 'que', "qu'", 'quoi', 'quel', 'quelle', 'quels', 'quelles', 'quand', 'ou', 'qui', 'combien', 'est-ce', 'puis-je', 'peut-on',
  'pouvez-vous', 'dois-je', 'faut-il',
  // Spanish
  'como', 'que', 'por que', 'porque', 'cuando', 'donde', 'cual', 'cuales', 'quien', 'quienes', 'cuanto', 'cuanta', 'cuantos', 'cuantas',
  'puedo', 'puede', 'puedes', 'podemos', 'debo', 'es', 'hay', 'se puede',
];
const QUESTION_START = new RegExp(`^(?:${QUESTION_WORDS.map((w) => (w.endsWith("'") ? w : `${w}(?![\\p{L}\\p{N}])`)).join('|')})`, 'u');
/** Chinese and Japanese question words, anywhere in the text (after Traditional characters are read as Simplified). */
const QUESTION_CJK = /如何|怎么|怎样|为什么|为何|是否|能否|可否|能不能|可不可以|什么|哪里|哪个|^哪|^谁|どう|なぜ|どのよう|どうして|どこ|いつ|^何|^誰/u;
/** A Japanese か, Chinese 吗 / 呢 right before the question mark. */
const QUESTION_END = /[か吗呢]$/u;

/** How many words a text has: a run of Chinese or Japanese characters counts one word for every two. */
function wordCount(t: string): number {
  let n = 0;
  for (const w of t.split(' ')) {
    const cjk = [...w].filter((c) => CJK.test(c)).length;
    n += cjk ? Math.ceil(cjk / 2) : 1;
  }
  return n;
}

/**
 * A text (folded) that ends in a question mark and reads as a question: a help link or a heading
 * ("How do I delete my account?", "如何删除账户？", "削除しますか？"), not an action ("Delete account?",
 * "Place order?", "立即購買？").
 */
export function isQuestion(folded: string): boolean {
  if (!/\?[^\p{L}\p{N}]*$/u.test(folded)) return false;
  const t = bare(folded);
  return QUESTION_START.test(t) || QUESTION_CJK.test(t) || QUESTION_END.test(t) || wordCount(t) > 6;
}

interface Compiled {
  /** the lists compiled, by identity and length: a changed list compiles again */
  from: (string[] | undefined)[];
  lengths: number[];
  lists: { mode: Mode; words: string[]; bare: string[] }[];
  looks: string[];
}

/** Folded phrase lists, kept per Phrases object: matchPhrase folds only the text. */
const compiled = new WeakMap<Partial<Phrases>, Compiled>();

/** A phrase folded, its "=" or "-" kept in front. */
function foldPhrase(w: string): string {
  const m = /^\s*([=-]?)([\s\S]*)$/.exec(w)!;
  const body = foldGuardText(m[2]);
  return body ? m[1] + body : '';
}

function compile(phrases: Partial<Phrases>): Compiled {
  const from = GUARD_LANGS.map((lang) => phrases[lang]);
  const lengths = from.map((l) => l?.length ?? -1);
  const known = compiled.get(phrases);
  if (known && known.from.every((l, i) => l === from[i] && known.lengths[i] === lengths[i])) return known;
  const lists = GUARD_LANGS.map((lang, i) => {
    const words = (from[i] ?? []).map(foldPhrase).filter(Boolean);
    return { mode: MODES[lang], words, bare: words.map((w) => (/^[=-]/.test(w) ? w : withoutFillers(w))) };
  });
  const looks = lists.flatMap(({ words }) => words.filter((w) => w.startsWith('-')).map((w) => w.slice(1).trim())).filter(Boolean);
  const out = { from, lengths, lists, looks };
  compiled.set(phrases, out);
  return out;
}

/**
 * The first phrase of `phrases` that `text` trips (as folded), or null. A place inside a look-alike
 * ("-phrase", any language) does not count: "已删除邮件" holds 删除 only inside 已删除, "移至已删除" is a hit.
 */
export function matchPhrase(text: string, phrases: Partial<Phrases>): string | null {
  const folded = foldGuardText(text);
  // A question is a help link or a heading, not an action ("如何删除学生？", "How do I delete…?").
  if (isQuestion(folded)) return null;
  const t = bare(folded);
  if (!t) return null;
  const { lists, looks } = compile(phrases);
  const short = withoutFillers(t);
  const texts = short === t ? [t] : [t, short];
  for (const { mode, words, bare: bareWords } of lists) {
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w.startsWith('-')) continue;
      if (w.startsWith('=')) {
        if (t === w.slice(1).trim()) return w;
        continue;
      }
      if (texts.some((x, k) => stands(x, k ? bareWords[i] : w, mode, looks))) return w;
    }
  }
  return null;
}

/** `phrase` stands in `text` (by `mode`) somewhere outside every look-alike and not right after NOT_AN_ORDER. */
function stands(text: string, phrase: string, mode: Mode, looks: string[]): boolean {
  const places_ = places(text, phrase, mode);
  if (!places_.length) return false;
  const covered = looks.flatMap((w) => places(text, w, 'word'));
  return places_.some(([a, b]) => !covered.some(([x, y]) => x <= a && b <= y) && !NOT_AN_ORDER.test(text.slice(0, a)));
}
