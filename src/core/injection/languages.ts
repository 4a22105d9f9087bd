/**
 * The injection detector's patterns in German, French, Spanish, Italian, Portuguese, Polish,
 * Turkish, Russian, Japanese and Korean (injection/index.ts holds English and Chinese): override, role,
 * address, command and secrecy forms in each. Written in plain spelling and read through
 * injection/fold.ts: accents go ("précédentes" is matched as "precedentes"; Polish ł and German ß
 * stay), Traditional Chinese characters are read as Simplified (Japanese kanji too, both sides
 * alike), and the Russian patterns read the text with Cyrillic kept (foldCyrillic).
 *
 * Each pattern wants an AI named, or the agent's instructions named next to an imperative, as the
 * English ones do, so ordinary interface text in the language ("Ignorer", "Anweisungen",
 * "Инструкции", "Talimatlar", "Du bist jetzt angemeldet", "이제 회원입니다", "Oubliez les règles du
 * régime") does not trip it. A bare name for an AI ("KI", "IA", "ИИ") must end there or go on with
 * a small word, so "KI-Experte" or "IA generativa" is not one. Patterns of the Latin-script
 * languages start with a lead word, which is also their anchor (injection/kinds.ts); Japanese and
 * Korean run only on text in their scripts, Russian only on Cyrillic text.
 */

import { foldSource } from './fold';
import type { InjectionKind, InjectionPattern } from './kinds';

const flagsOf = (source: string) => (source.includes('\\p{') ? 'u' : '');
const rx = (kind: InjectionKind, source: string): InjectionPattern => {
  const folded = foldSource(source);
  return { kind, re: new RegExp(folded, flagsOf(folded)) };
};
const ru = (kind: InjectionKind, source: string): InjectionPattern => ({ kind, re: new RegExp(foldSource(source, true), 'u') });

/** A lead's words: split at spaces (`\s+`) and apostrophes. */
const LEAD_SPLIT = /\\s[+*]|'/;
const WORD = /^[a-z0-9_]+$/;
/** What may follow a lead: nothing that could go on with the lead's word. */
const REST_START = /^(?:\\s|\\b|'|\(\?:\\s|\(\?:-\|\\s)/;

/**
 * A pattern that starts, at a word's start, with one of `leads` (words joined by `\s+` or an
 * apostrophe: "ne\\s+tiens", "n'informe"), then `rest`. Each lead's first word of two or more
 * letters is an anchor (injection/kinds.ts): the words before it must be plain words too.
 */
function led(kind: InjectionKind, leads: string[], rest: string): InjectionPattern {
  const folded = leads.map((l) => foldSource(l));
  const anchors = folded.map((l) => {
    for (const w of l.split(LEAD_SPLIT)) {
      if (!WORD.test(w)) break;
      if (w.length >= 2) return w;
    }
    throw new Error(`injection pattern: the lead '${l}' has no plain word of two letters or more first`);
  });
  if (!REST_START.test(rest)) throw new Error(`injection pattern: '${rest.slice(0, 30)}' could go on with a lead's word`);
  const source = String.raw`\b(?:${folded.join('|')})${foldSource(rest)}`;
  return { kind, re: new RegExp(source, flagsOf(source)), anchors: [...new Set(anchors)] };
}

/**
 * After a bare name for an AI ("KI", "IA", "ИИ"): the end, punctuation or one of `words`, so "KI
 * Experte" or "IA generativa" (a person, a product) is not read as a name.
 */
const named = (names: string, words: string) => String.raw`(?:${names})(?=$|\s*[,.;:!?)"'»“”]|\s+(?:${words})(?![\p{L}\p{N}]))`;

/** Not inside a word (Cyrillic and Hangul have no \b). */
const B0 = String.raw`(?<![\p{L}\p{N}_])`;
const B1 = String.raw`(?![\p{L}\p{N}_])`;

// German
const DE_AI = String.raw`(?:ki-(?:agent|assistent|modell|system|bot)|(?:ki|ai)\s+(?:agent|assistent|modell)|${named('ki|ai|llm|gpt|chatgpt', 'und|oder|der|die|das|mit|ohne|für|von|namens|im|in|auf|jetzt|nun|bist|sind|musst|sollst|solltest|müssen|sollen')}|sprachmodell|künstliche\s+intelligenz|autonomer\s+agent)`;
const GERMAN: InjectionPattern[] = [
  led('override', ['ignoriere', 'ignorier', 'ignoriert', 'ignorieren\\s+sie', 'vergiss', 'vergesst', 'vergessen\\s+sie', 'missachte', 'missachten\\s+sie'],
    String.raw`\s+(?:alle\s+)?(?:(?:deine|ihre|eure|die)\s+)?(?:vorherigen|bisherigen|obigen|vorigen|früheren|ursprünglichen|system|deine|ihre|eure)\s*(?:\S+\s+)?(?:anweisungen|instruktionen|regeln|befehle|vorgaben|prompts?)\b`),
  led('override', ['neue', 'aktualisierte', 'wichtige', 'geheime', 'echte'],
    String.raw`\s+(?:system)?anweisungen\s*(?::|für\s+(?:die\s+|den\s+|alle\s+)?(?:ki|ai|agenten?|assistenten?|modelle?|bots?)\b)`),
  led('override', ['systemprompt', 'systemanweisung', 'systemanweisungen'], String.raw`\s*:`),
  led('override', ['system'], String.raw`\s*-\s*(?:prompt|anweisungen?)\s*:`),
  led('role', ['du\\s+bist', 'sie\\s+sind', 'ihr\\s+seid'],
    String.raw`\s+(?:jetzt|nun|ab\s+sofort|ab\s+jetzt|von\s+nun\s+an)\s+(?:ein(?:e|en)?\s+)?(?:(?:hilfreiche[rs]?|autonome[rs]?|neue[rs]?|uneingeschränkte[rs]?)\s+)?${DE_AI}\b`),
  led('role', ['ab\\s+jetzt', 'ab\\s+sofort', 'von\\s+nun\\s+an'], String.raw`\s*,?\s*(?:bist\s+du|sind\s+sie)\s+(?:ein(?:e)?\s+)?${DE_AI}\b`),
  led('role', ['du\\s+bist'], String.raw`\s+(?:ein(?:e)?\s+)?(?:hilfreiche[rs]?\s+)?(?:ki|ai)-?(?:agent|assistent)\b`),
  led('address', ['achtung', 'hinweis', 'nachricht', 'wichtig', 'hallo', 'hey', 'liebe', 'lieber', 'liebes', 'an\\s+alle', 'an\\s+die', 'an\\s+jeden', 'an\\s+jede', 'an\\s+jedes'],
    String.raw`\s*[,:!]?\s*(?:an\s+|für\s+)?(?:alle\s+|die\s+)?(?:ki|ai|llm)(?:[- ]?(?:agenten|assistenten|modelle|systeme|bots|agent|assistent|modell))?\s*[:!]`),
  led('address', ['für', 'an'], String.raw`\s+(?:alle\s+|die\s+)?(?:ki|ai)-?(?:agenten|assistenten|modelle|systeme)\s*[:!]`),
  led('address', ['wenn', 'falls'], String.raw`\s+(?:du|sie)\s+(?:ein(?:e)?\s+)?${DE_AI}\s+(?:bist|sind)\b`),
  led('address', ['als'], String.raw`\s+(?:ein(?:e)?\s+)?${DE_AI}\s*,?\s*(?:musst|sollst|solltest|müssen|sollen)\s+(?:du|sie)\b`),
  led('address', ['ki', 'ai'], String.raw`(?:-|\s+)(?:agenten|assistenten|modelle|systeme)\s+(?:müssen|sollen|sollten)\b`),
  led('command', ['deine', 'ihre'], String.raw`\s+(?:nächste|einzige|erste)\s+(?:aktion|antwort|handlung)\s+(?:muss|soll|wird)\b`),
  led('command', ['antworte', 'antworten\\s+sie'], String.raw`\s+(?:nur|ausschließlich|ausschliesslich|lediglich)\s+mit\b`),
  led('secrecy', ['sag', 'sage', 'erzähl', 'erzähle', 'verrate', 'zeig', 'zeige'],
    String.raw`\s+(?:es\s+|das\s+|davon\s+)?(?:dem|den)\s+(?:nutzer|benutzer|user|menschen|anwender)\s+(?:nichts|nicht)\b`),
  led('secrecy', ['informiere'], String.raw`\s+(?:den\s+)?(?:nutzer|benutzer|anwender)\s+nicht\b`),
];

// French
const FR_AI = String.raw`(?:${named('ia|ai|llm|gpt|chatgpt', 'et|ou|qui|que|avec|sans|pour|de|du|nommée?|appelée?|au|dans|sur|maintenant|tu|vous')}|intelligence\s+artificielle|agent\s+(?:ia|ai|d'ia|autonome|web)|assistant\s+(?:ia|ai|d'ia)|modèle\s+de\s+langage|chatbot)`;
const FR_RULES = String.raw`(?:instructions|consignes|règles|directives)`;
const FRENCH: InjectionPattern[] = [
  led('override', ['ignore', 'ignorez', 'ignorer', 'oublie', 'oubliez', 'oublier'],
    String.raw`\s+(?:(?:toutes\s+les|tes|vos)\s+(?:\S+\s+)?${FR_RULES}|les\s+(?:\S+\s+)?${FR_RULES}\s+(?:précédentes|antérieures|ci-dessus|initiales|originales|d'origine|du\s+système|reçues|données))\b`),
  led('override', ['ne'], String.raw`\s+(?:tiens|tenez)\s+(?:pas\s+|plus\s+)?compte\s+(?:des|de\s+tes|de\s+vos)\s+(?:\S+\s+)?${FR_RULES}\b`),
  led('override', ['nouvelles', 'vraies', 'véritables', 'importantes', 'secrètes'],
    String.raw`\s+(?:instructions|consignes)\s*(?::|pour\s+(?:l'|les\s+)?(?:ia|ai|agents?|assistants?|modèles?)\b)`),
  led('override', ['prompt', 'instruction', 'instructions'], String.raw`\s+(?:du\s+)?système\s*:`),
  led('role', ['tu\\s+es', 'vous\\s+êtes'], String.raw`\s+(?:maintenant|désormais|à\s+présent|dorénavant)\s+(?:une?\s+|l')?${FR_AI}\b`),
  led('role', ['à\\s+partir\\s+de\\s+maintenant', 'désormais', 'dorénavant', 'dès\\s+maintenant'], String.raw`\s*,?\s*(?:tu\s+es|vous\s+êtes)\s+(?:une?\s+|l')?${FR_AI}\b`),
  led('role', ['tu\\s+es', 'vous\\s+êtes'], String.raw`\s+(?:une?\s+)?(?:agent|assistant)\s+(?:ia|ai|d'ia)\b`),
  led('address', ['attention', 'note', 'message', 'avis', 'important', 'bonjour', 'salut', 'cher', 'chers', 'chère', 'chères'],
    String.raw`\s*[,:!]?\s*(?:à\s+|aux\s+|pour\s+)?(?:tous\s+les\s+|toutes\s+les\s+|les\s+|l')?(?:ia|ai|llm|agents?\s+(?:ia|ai|d'ia)|assistants?\s+(?:ia|ai|d'ia)|modèles?\s+de\s+langage|intelligences?\s+artificielles?)\s*[:!]`),
  led('address', ['aux', 'pour', 'à\\s+tous', 'à\\s+toutes'], String.raw`\s+(?:les\s+)?(?:agents|assistants|modèles)\s+(?:ia|ai|d'ia|de\s+langage)\s*[:!]`),
  led('address', ['si'], String.raw`\s+(?:tu\s+es|vous\s+êtes)\s+(?:une?\s+|l')?${FR_AI}\b`),
  led('address', ['en'], String.raw`\s+tant\s+qu(?:e\s+|')(?:une?\s+)?${FR_AI}\s*,?\s*(?:tu\s+dois|vous\s+devez)\b`),
  led('command', ['ta', 'votre'], String.raw`\s+(?:prochaine|seule|première)\s+(?:action|réponse)\s+(?:doit|devra)\s+être\b`),
  led('command', ['réponds', 'répondez'], String.raw`\s+(?:uniquement|seulement|exclusivement)\s+(?:par|avec)\b`),
  led('secrecy', ['ne'], String.raw`\s+(?:le\s+|rien\s+)?(?:dis|dites|révèle|révélez|montre|montrez)\s+(?:rien\s+|pas\s+)?(?:(?:cela|ceci|ça)\s+)?à\s+l'utilisateur\b`),
  led('secrecy', ["n'informe", "n'informez", "n'avertis", "n'avertissez", "ne\\s+préviens", "ne\\s+prévenez"], String.raw`\s+pas\s+l'utilisateur\b`),
];

// Spanish
const ES_AI = String.raw`(?:${named('ia|ai|llm|gpt|chatgpt', 'y|o|que|con|sin|para|de|del|llamad[oa]|en|sobre|ahora|debes|tienes')}|inteligencia\s+artificial|agente\s+(?:de\s+)?(?:ia|ai|autónomo|web)|asistente\s+(?:de\s+)?(?:ia|ai)|modelo\s+de\s+lenguaje|chatbot)`;
const ES_RULES = String.raw`(?:instrucciones|reglas|órdenes|indicaciones|directrices)`;
const SPANISH: InjectionPattern[] = [
  led('override', ['ignora', 'ignore', 'ignorad', 'ignoren', 'olvida', 'olvide', 'olvidad', 'olviden'],
    String.raw`\s+(?:(?:todas\s+las|tus|sus)\s+(?:\S+\s+)?${ES_RULES}|las\s+(?:\S+\s+)?${ES_RULES}\s+(?:anteriores|previas|de\s+arriba|iniciales|originales|del\s+sistema|recibidas))\b`),
  led('override', ['nuevas', 'verdaderas', 'importantes', 'secretas'],
    String.raw`\s+instrucciones\s*(?::|para\s+(?:el\s+|la\s+|los\s+|las\s+)?(?:ia|ai|agentes?|asistentes?|modelos?)\b)`),
  led('override', ['prompt', 'instrucciones'], String.raw`\s+del\s+sistema\s*:`),
  led('role', ['ahora', 'a\\s+partir\\s+de\\s+ahora', 'desde\\s+ahora'], String.raw`\s*,?\s*(?:tú\s+)?(?:eres|sois|usted\s+es)\s+(?:una?\s+)?${ES_AI}\b`),
  led('role', ['eres', 'sois', 'tú\\s+eres', 'tú\\s+sois'], String.raw`\s+ahora\s+(?:una?\s+)?${ES_AI}\b`),
  led('role', ['eres', 'sois'], String.raw`\s+(?:una?\s+)?(?:agente|asistente)\s+(?:de\s+)?(?:ia|ai)\b`),
  led('address', ['atención', 'aviso', 'nota', 'mensaje', 'importante', 'hola', 'querido', 'queridos', 'estimado', 'estimados'],
    String.raw`\s*[,:!]?\s*(?:a\s+|para\s+)?(?:todos\s+los\s+|todas\s+las\s+|los\s+|las\s+|la\s+)?(?:ia|ai|llm|agentes?\s+(?:de\s+)?(?:ia|ai)|asistentes?\s+(?:de\s+)?(?:ia|ai)|modelos?\s+de\s+lenguaje)\s*[:!]`),
  led('address', ['a\\s+los', 'a\\s+todos', 'para'], String.raw`\s+(?:los\s+)?(?:agentes|asistentes|modelos)\s+(?:de\s+)?(?:ia|ai|lenguaje)\s*[:!]`),
  led('address', ['si'], String.raw`\s+(?:tú\s+)?(?:eres|es\s+usted)\s+(?:una?\s+)?${ES_AI}\b`),
  led('address', ['como'], String.raw`\s+(?:una?\s+)?${ES_AI}\s*,?\s*(?:debes|tienes\s+que|deberías)\b`),
  led('command', ['tu'], String.raw`\s+(?:próxima|siguiente|única|primera)\s+(?:acción|respuesta)\s+(?:debe|tiene\s+que)\s+ser\b`),
  led('command', ['responde'], String.raw`\s+(?:solo|sólo|solamente|únicamente|exclusivamente)\s+con\b`),
  led('secrecy', ['no'], String.raw`\s+(?:le\s+)?(?:digas|informes|cuentes|avises|muestres|reveles)\s+(?:nada\s+)?(?:de\s+esto\s+)?al\s+usuario\b`),
];

// Italian
const IT_AI = String.raw`(?:${named('ia|ai|llm|gpt|chatgpt', 'e|o|che|con|senza|per|di|del|della|chiamat[oa]|in|su|ora|al|devi|dovresti|tu')}|intelligenza\s+artificiale|agente\s+(?:ia|ai|di\s+ia|autonomo|web)|assistente\s+(?:ia|ai|di\s+ia)|modello\s+(?:linguistico|di\s+linguaggio)|chatbot)`;
const IT_RULES = String.raw`(?:istruzioni|indicazioni|regole|direttive|comandi|prompt|ordini)`;
const ITALIAN: InjectionPattern[] = [
  led('override', ['ignora', 'ignorate', 'ignori', 'dimentica', 'dimenticate', 'dimentichi', 'trascura', 'trascurate', 'scarta', 'non\\s+considerare', 'non\\s+tenere\\s+conto\\s+(?:di|delle|dei)'],
    String.raw`\s+(?:(?:tutte|tutti)\s+(?:le\s+|i\s+|gli\s+)?(?:\S+\s+)?${IT_RULES}|(?:le\s+|i\s+|gli\s+)?(?:tue|vostre|sue|tuoi|precedenti)\s+(?:\S+\s+)?${IT_RULES}|(?:le\s+|i\s+|gli\s+)?${IT_RULES}\s+(?:precedenti|ricevute|date\s+(?:in\s+)?precedenza|di\s+sistema|iniziali|originali|(?:qui\s+)?sopra|anteriori))\b`),
  led('override', ['nuove', 'vere', 'ulteriori', 'importanti', 'segrete'],
    String.raw`\s+istruzioni\s*(?::|per\s+(?:l'|gli\s+|il\s+|i\s+|le\s+)?(?:ia|ai|agent[ei]|assistent[ei]|modell[oi]|bot)\b)`),
  led('override', ['istruzioni', 'prompt'], String.raw`\s+di\s+sistema\s*:`),
  led('role', ['ora', 'adesso', 'd\'ora\\s+in\\s+poi', 'da\\s+ora\\s+in\\s+poi'], String.raw`\s*,?\s*(?:tu\s+)?sei\s+(?:ora\s+|adesso\s+)?(?:un'|un\s+|una\s+|l')?${IT_AI}\b`),
  led('role', ['sei', 'tu\\s+sei'], String.raw`\s+(?:ora|adesso)\s+(?:un'|un\s+|una\s+|l')?${IT_AI}\b`),
  led('role', ['sei'], String.raw`\s+(?:un\s+)?(?:agente|assistente)\s+(?:ia|ai|di\s+ia)\b`),
  led('address', ['attenzione', 'nota', 'avviso', 'messaggio', 'importante', 'ciao', 'salve', 'cari', 'care', 'gentili'],
    String.raw`\s*[,:!]?\s*(?:per\s+|a\s+|agli\s+|ai\s+|alle\s+)?(?:tutti\s+gli\s+|tutte\s+le\s+|gli\s+|le\s+|l'|i\s+)?(?:ia|ai|llm|agenti\s+(?:ia|ai|di\s+ia)|assistenti\s+(?:ia|ai|di\s+ia)|modelli\s+(?:linguistici|ia|ai)|intelligenze\s+artificiali)\s*[:!]`),
  led('address', ['agli', 'alle', 'per', 'a\\s+tutti', 'a\\s+tutte'], String.raw`\s+(?:gli\s+|le\s+|i\s+)?(?:agenti|assistenti|modelli)\s+(?:ia|ai|di\s+ia|linguistici)\s*[:!]`),
  led('address', ['se'], String.raw`\s+(?:tu\s+)?sei\s+(?:un'|un\s+|una\s+|l')?${IT_AI}\b`),
  led('address', ['in\\s+quanto', 'come'], String.raw`\s+(?:un'|un\s+|una\s+)?${IT_AI}\s*,?\s*(?:tu\s+)?(?:devi|dovresti)\b`),
  led('command', ['la'], String.raw`\s+tua\s+(?:prossima|unica|prima)\s+(?:azione|risposta|mossa)\s+(?:deve|dovrà)\s+essere\b`),
  led('command', ['rispondi'], String.raw`\s+(?:solo|soltanto|esclusivamente|unicamente)\s+(?:con\b|")`),
  led('secrecy', ['non'], String.raw`\s+(?:dire|dirlo|dirgli|informare|avvisare|far\s+sapere|rivelare|mostrare)\s+(?:nulla\s+|niente\s+)?(?:(?:questo|ciò)\s+)?(?:all'|a\s+l'|l'|agli\s+)(?:utente|utenti)\b`),
];

// Portuguese
const PT_AI = String.raw`(?:${named('ia|ai|llm|gpt|chatgpt', 'e|ou|que|com|sem|para|de|do|da|desta|deste|chamad[oa]|em|no|na|agora|você|tu|deve|deves|tem|precisa')}|inteligência\s+artificial|agente\s+(?:de\s+)?(?:ia|ai|autônomo|web)|assistente\s+(?:de\s+)?(?:ia|ai)|modelo\s+de\s+linguagem|chatbot)`;
const PT_RULES = String.raw`(?:instruções|instrução|orientações|regras|diretrizes|diretivas|comandos|ordens|prompts?)`;
const PORTUGUESE: InjectionPattern[] = [
  led('override', ['ignore', 'ignora', 'ignorem', 'ignorar', 'desconsidere', 'desconsidera', 'desconsiderem', 'esqueça', 'esquece', 'esqueçam', 'descarte', 'despreze'],
    String.raw`\s+(?:(?:todas|todos)\s+(?:as\s+|os\s+)?(?:suas\s+|tuas\s+)?(?:\S+\s+)?${PT_RULES}|(?:as\s+|os\s+)?(?:suas|tuas|vossas)\s+(?:\S+\s+)?${PT_RULES}|(?:as\s+|os\s+)?${PT_RULES}\s+(?:anteriores|prévias|acima|iniciais|originais|do\s+sistema|recebidas))\b`),
  led('override', ['novas', 'verdadeiras', 'importantes', 'secretas'],
    String.raw`\s+instruções\s*(?::|para\s+(?:o\s+|a\s+|os\s+|as\s+)?(?:ia|ai|agentes?|assistentes?|modelos?)\b)`),
  led('override', ['prompt', 'instruções'], String.raw`\s+do\s+sistema\s*:`),
  led('role', ['você', 'tu'], String.raw`\s+(?:agora\s+é|é\s+agora|agora\s+és|és\s+agora)\s+(?:(?:um|uma|o|a)\s+)?${PT_AI}\b`),
  led('role', ['agora', 'a\\s+partir\\s+de\\s+agora', 'de\\s+agora\\s+em\\s+diante'], String.raw`\s*,?\s*(?:você|tu)\s+(?:é|és|será|serás)\s+(?:(?:um|uma|o|a)\s+)?${PT_AI}\b`),
  led('role', ['você', 'tu'], String.raw`\s+(?:é|és)\s+(?:um\s+)?(?:agente|assistente)\s+de\s+(?:ia|ai)\b`),
  led('address', ['atenção', 'aviso', 'nota', 'mensagem', 'importante', 'olá', 'caros', 'caras', 'prezados'],
    String.raw`\s*[,:!]?\s*(?:para\s+|aos\s+|às\s+|a\s+)?(?:todos\s+os\s+|todas\s+as\s+|os\s+|as\s+|o\s+|a\s+)?(?:ia|ai|llm|agentes?\s+(?:de\s+)?(?:ia|ai)|assistentes?\s+(?:de\s+)?(?:ia|ai)|modelos?\s+de\s+(?:linguagem|ia))\s*[:!]`),
  led('address', ['aos', 'para', 'a\\s+todos'], String.raw`\s+(?:os\s+)?(?:agentes|assistentes|modelos)\s+(?:de\s+)?(?:ia|ai|linguagem)\s*[:!]`),
  led('address', ['se'], String.raw`\s+(?:você|tu)\s+(?:é|és|for|fores)\s+(?:(?:um|uma)\s+)?${PT_AI}\b`),
  led('address', ['como'], String.raw`\s+(?:(?:um|uma)\s+)?${PT_AI}\s*,?\s*(?:você|tu)\s+(?:deve|deves|tem\s+que|precisa)\b`),
  led('command', ['sua', 'tua'], String.raw`\s+(?:próxima|única|primeira)\s+(?:ação|resposta)\s+(?:deve|tem\s+que)\s+ser\b`),
  led('command', ['responda'], String.raw`\s+(?:apenas|somente|só|unicamente)\s+com\b`),
  led('secrecy', ['não'], String.raw`\s+(?:diga|conte|informe|avise|mostre|revele)\s+(?:nada\s+)?(?:(?:isso|isto)\s+)?(?:ao|o|aos|para\s+o)\s+(?:usuário|utilizador)\b`),
];

// Polish (ł stays ł: \b is not used next to it)
const PL_AI = String.raw`(?:${named('ai|si|llm|gpt|chatgpt', 'i|lub|który|która|bez|dla|z|w|na|o|teraz|tego|musisz|powinieneś|masz')}|sztuczną\s+inteligencją|sztuczna\s+inteligencja|agentem\s+(?:ai|si)|asystentem\s+(?:ai|si)|modelem\s+językowym|chatbotem)`;
const PL_RULES = String.raw`(?:instrukcje|instrukcji|polecenia|poleceń|zasady|reguły|reguly|wytyczne|komendy|rozkazy|prompty?)`;
const POLISH: InjectionPattern[] = [
  led('override', ['zignoruj', 'ignoruj', 'zignorujcie', 'ignorujcie', 'zapomnij', 'zapomnijcie', 'pomiń', 'pomińcie', 'odrzuć', 'nie\\s+zważaj\\s+na', 'nie\\s+stosuj\\s+się\\s+do'],
    String.raw`\s+(?:wszystkie\s+|wszystkich\s+)?(?:(?:swoje|twoje|swoich|twoich)\s+)?(?:poprzednie|poprzednich|wcześniejsze|wcześniejszych|dotychczasowe|dotychczasowych|powyższe|powyższych|wszystkie|systemowe|oryginalne|pierwotne|swoje|twoje)\s+(?:\S+\s+)?${PL_RULES}(?![\p{L}])`),
  led('override', ['nowe', 'prawdziwe', 'ważne', 'tajne'], String.raw`\s+(?:instrukcje|polecenia)\s*(?::|dla\s+(?:ai|si|agenta|agentów|asystenta|modelu|bota)\b)`),
  led('override', ['instrukcje', 'prompt'], String.raw`\s+systemow(?:e|y)\s*:`),
  led('role', ['teraz', 'od\\s+teraz', 'od\\s+tej\\s+chwili'], String.raw`\s*,?\s*(?:ty\s+)?jesteś\s+(?:teraz\s+)?${PL_AI}\b`),
  led('role', ['jesteś', 'ty\\s+jesteś'], String.raw`\s+(?:teraz|od\s+teraz)\s+${PL_AI}\b`),
  led('role', ['jesteś'], String.raw`\s+(?:agentem|asystentem)\s+(?:ai|si)\b`),
  led('address', ['uwaga', 'wiadomość', 'notatka', 'informacja', 'ważne', 'cześć', 'drodzy', 'droga', 'drogi'],
    String.raw`\s*[,:!]?\s*(?:dla\s+|do\s+)?(?:wszystkich\s+)?(?:ai|si|llm|agentów\s+(?:ai|si)|agenci\s+(?:ai|si)|asystentów\s+(?:ai|si)|asystenci\s+(?:ai|si)|modeli\s+(?:ai|językowych)|modele\s+(?:ai|językowe)|agencie\s+(?:ai|si)|asystencie\s+(?:ai|si))\s*[:!]`),
  led('address', ['do', 'dla'], String.raw`\s+(?:wszystkich\s+)?(?:agentów|asystentów|modeli)\s+(?:ai|si|językowych)\s*[:!]`),
  led('address', ['jeśli', 'jeżeli', 'gdy'], String.raw`\s+(?:jesteś|jesteście)\s+${PL_AI}\b`),
  led('address', ['jako'], String.raw`\s+(?:ai|si|model\s+językowy|agent\s+(?:ai|si)|asystent\s+(?:ai|si))\s*,?\s*(?:musisz|powinieneś|powinnaś|masz)\b`),
  led('command', ['twoja', 'twoją'], String.raw`\s+(?:następna|kolejna|jedyna)\s+(?:akcja|czynność|odpowiedź)\s+(?:musi|powinna)\s+być\b`),
  led('command', ['twoim'], String.raw`\s+(?:następnym|kolejnym|jedynym)\s+(?:krokiem|działaniem|ruchem)\s+(?:musi|powinno)\s+być\b`),
  led('command', ['odpowiedz'], String.raw`\s+(?:tylko|wyłącznie|jedynie)\s+(?:słowem|tekstem|zdaniem|")`),
  led('secrecy', ['nie'], String.raw`\s+(?:mów|mówcie|informuj|informujcie|powiadamiaj|zdradzaj|pokazuj)\s+(?:nic\s+|o\s+tym\s+)?(?:użytkownikowi|użytkownikom|człowiekowi)`),
];

// Turkish (ı read as i, accents dropped: "talimatları" is matched as "talimatlari")
const TR_AI_STEM = String.raw`(?:yapay\s+zek[aâ](?:\s+(?:ajanı|asistanı|modeli|botu))?|ai(?:\s+(?:ajanı|asistanı|modeli))?|dil\s+modeli|sohbet\s+botu|chatbot)`;
const TR_RULES = String.raw`(?:talimatları(?:nı)?|talimatlar|talimatı(?:nı)?|komutları(?:nı)?|kuralları(?:nı)?|yönergeleri(?:ni)?|yönergeler|istemleri(?:ni)?|istemi(?:ni)?|emirleri(?:ni)?|direktifleri(?:ni)?|promptu|promptları)`;
const TR_EARLIER = ['önceki', 'yukarıdaki', 'eski', 'mevcut', 'sistem', 'ilk', 'orijinal', 'tüm', 'bütün', 'sana\\s+verilen', 'size\\s+verilen', 'daha\\s+önceki'];
const TURKISH: InjectionPattern[] = [
  led('override', TR_EARLIER,
    String.raw`\s+(?:(?:${TR_EARLIER.join('|')})\s+){0,2}(?:\S+\s+)?${TR_RULES}\s+(?:tamamen\s+|hepsini\s+)?(?:(?:yok\s*say|görmezden\s+gel|unut|göz\s+ardı\s+et)(?:ın|ınız|in|iniz)?\b|dikkate\s+alma(?:yın|yınız)?\b)`),
  led('override', ['yeni', 'gerçek', 'önemli', 'gizli'], String.raw`\s+(?:sistem\s+)?talimat(?:lar)?\s*:`),
  led('override', ['sistem'], String.raw`\s+(?:talimatı|istemi|promptu)\s*:`),
  led('role', ['artık', 'şimdi', 'bundan\\s+sonra', 'şu\\s+andan\\s+itibaren'], String.raw`\s*,?\s*(?:sen\s+)?(?:artık\s+)?(?:bir\s+)?${TR_AI_STEM}'?s[ıi]n(?:ız)?\b`),
  led('role', ['sen'], String.raw`\s+(?:artık\s+|şimdi\s+)?bir\s+${TR_AI_STEM}'?s[ıi]n\b`),
  led('address', ['dikkat', 'mesaj', 'uyarı', 'önemli', 'merhaba', 'sevgili', 'değerli', 'not\\s*:'],
    String.raw`\s*[,:!]?\s*(?:tüm\s+|bütün\s+)?(?:yapay\s+zek[aâ]|ai|yz|llm)(?:\s+(?:ajanları|asistanları|modelleri|sistemleri|botları|ajanı|asistanı|modeli))?(?:'?(?:na|ne|ya|ye))?\s*[:!]`),
  led('address', ['yapay'], String.raw`\s+zek[aâ]\s+(?:ajanlarına|asistanlarına|modellerine|botlarına)\s*[:!]`),
  led('address', ['ai', 'yz'], String.raw`\s+(?:ajanlarına|asistanlarına|modellerine|botlarına)\s*[:!]`),
  led('address', ['tüm', 'bütün'], String.raw`\s+(?:yapay\s+zek[aâ]|ai|yz)\s+(?:ajanlarına|asistanlarına|modellerine|botlarına)\s*[:!]`),
  led('address', ['bir'], String.raw`\s+(?:yapay\s+zek[aâ]|ai|yz|dil\s+modeli)(?:\s+(?:ajanı|asistanı|modeli|botu))?(?:\s+ise(?:n|niz)|'?y?sa(?:n|nız)|'?y?se(?:n|niz))\b`),
  led('address', ['bir'], String.raw`\s+(?:yapay\s+zek[aâ]|ai|dil\s+modeli)(?:\s+(?:ajanı|asistanı|modeli))?\s+olarak\s*,?\s*(?:sen\s+)?(?:\S+\s+){0,3}?\S+(?:malısın|melisin|zorundasın)\b`),
  led('command', ['sonraki'], String.raw`\s+(?:eylemin|işlemin|adımın|hamlen|yanıtın|cevabın)\s+.{1,60}?\bolmalı`),
  led('command', ['sadece', 'yalnızca'], String.raw`\s+"[^"]{1,40}"\s*(?:diye\s+)?(?:yanıt|cevap)\s+ver(?:in|iniz)?\b`),
  led('secrecy', ['kullanıcıya'], String.raw`\s+(?:bundan\s+|bunu\s+|hiçbir\s+şey\s+)?(?:söyleme|bildirme|haber\s+verme|anlatma|gösterme|sezdirme)(?:yin|yiniz)?\b`),
];

// Russian: read with Cyrillic kept (foldCyrillic; й as и, ё as е)
const RU_AI = String.raw`(?:(?:ии|ai)[- ](?:агент|ассистент|помощник|модель)(?:ом|ью)?|${named('ии|ai|llm|gpt|chatgpt', 'и|или|который|которая|без|для|с|в|на|по|теперь|этого|ты|вы|должен|должна|должны|обязан|обязаны')}|искусственн(?:ый|ым)\s+интеллект(?:ом)?|агент(?:ом)?\s+(?:ии|ai)|языков(?:ая|ой)\s+модел(?:ь|ью)|нейросеть(?:ю)?|чат-?бот(?:ом)?)`;
const RU_EARLIER = String.raw`(?:предыдущие|предыдущих|предыдущим|прежние|прежних|прошлые|вышеуказанные|вышеприведённые|вышеизложенные|приведённые\s+выше|данные\s+ранее|полученные\s+ранее|старые|исходные|изначальные|первоначальные|системные|свои|твои|ваши|все|всё|любые)`;
const RU_RULES = String.raw`(?:инструкци(?:и|й|ям)|указани(?:я|й|ям)|команд(?:ы|ам)?|правил(?:а|ам)?|промпт(?:ы|ам)?|подсказк(?:и|ам)|распоряжени(?:я|й|ям)|директив(?:ы|ам)?|установк(?:и|ам)|ограничени(?:я|й|ям))`;
const RUSSIAN: InjectionPattern[] = [
  ru('override', String.raw`${B0}(?:проигнорируй|игнорируй|проигнорируйте|игнорируйте|забудь|забудьте|отбрось|отбросьте|отмени|отмените|пренебреги|не\s+обращай(?:те)?\s+внимания\s+на|не\s+слушай(?:те)?|не\s+следуй(?:те)?|не\s+выполняй(?:те)?)\s+(?:(?:все|всё|любые|эти)\s+)?(?:(?:свои|твои|ваши)\s+)?${RU_EARLIER}\s+(?:[\p{L}-]+\s+){0,2}?${RU_RULES}${B1}`),
  ru('override', String.raw`${B0}(?:проигнорируй|игнорируй|игнорируйте|забудь|забудьте)\s+(?:все|всё),?\s+что\s+(?:тебе\s+|вам\s+)?(?:было\s+)?(?:сказано|написано|указано|говорили)\s+(?:выше|ранее|до\s+этого)`),
  ru('override', String.raw`${B0}(?:новые|обновлённые|настоящие|секретные|скрытые|важные)\s+(?:системные\s+)?(?:инструкции|указания)\s*(?::|для\s+(?:ии|ai|агента|агентов|ассистента|модели|бота)${B1})`),
  ru('override', String.raw`${B0}системн(?:ый|ая|ые)\s+(?:промпт|инструкци[яи]|указани[ея])\s*:`),
  ru('override', String.raw`${B0}(?:покажи|выведи|раскрой|напиши|повтори)(?:те)?\s+(?:мне\s+)?(?:(?:свой|твой|ваш|весь)\s+)?(?:системный\s+промпт|исходные\s+инструкции|системные\s+инструкции)`),
  ru('role', String.raw`${B0}(?:ты|вы)\s+(?:теперь|отныне|сейчас)\s+(?:—\s+|-\s+)?(?:(?:полезный|автономный|новый|неограниченный|свободный)\s+)?${RU_AI}${B1}`),
  ru('role', String.raw`${B0}(?:теперь|отныне|с\s+этого\s+момента)\s*,?\s*(?:ты|вы)\s+(?:—\s+|-\s+)?(?:(?:являешься|являетесь)\s+)?${RU_AI}${B1}`),
  ru('role', String.raw`${B0}(?:с\s+этого\s+момента|отныне|теперь)\s*,?\s*ты\s+(?:должен|должна|обязан|обязана|являешься)${B1}`),
  ru('role', String.raw`${B0}(?:ты|вы)\s+(?:являешься|являетесь)\s+${RU_AI}${B1}`),
  ru('address', String.raw`${B0}(?:внимание|примечание|сообщение|заметка|обращение|важно|дорогие|уважаемые|привет|эй)\s*[,:!]?\s*(?:для\s+|к\s+)?(?:всех\s+|всем\s+)?(?:ии|ai|llm|gpt)(?:[- ]?(?:агент(?:ы|ов|ам)?|ассистент(?:ы|ов|ам)?|помощник(?:и|ов|ам)?|модел(?:и|ей|ям)|систем(?:ы|ам)?))?\s*[:!]`),
  ru('address', String.raw`${B0}(?:всем|для(?:\s+всех)?|к)\s+(?:ии|ai)[- ]?(?:агент(?:ам|ов)|ассистент(?:ам|ов)|модел(?:ям|ей)|бот(?:ам|ов))\s*[:!]`),
  ru('address', String.raw`${B0}если\s+(?:ты|вы)\s+(?:—\s+|-\s+)?(?:(?:являешься|являетесь)\s+)?${RU_AI}${B1}`),
  ru('address', String.raw`${B0}(?:как|будучи)\s+${RU_AI}\s*,?\s*(?:ты|вы)\s+(?:должен|должна|должны|обязан|обязаны)${B1}`),
  ru('address', String.raw`${B0}(?:(?:ии|ai|llm)[- ]?(?:агенты|ассистенты|модели|помощники|боты)|языковые\s+модели)\s*,?\s*(?:должны|обязаны)${B1}`),
  ru('command', String.raw`${B0}(?:твоё|твое|ваше)\s+следующее\s+(?:действие|ответ)\s+(?:должно|будет)\s+(?:быть|—)`),
  ru('command', String.raw`${B0}(?:отвечай|ответь|отвечайте|ответьте)\s+(?:только|исключительно|лишь)\s+`),
  ru('command', String.raw`${B0}(?:прекрати|прекратите|брось|бросьте|оставь|оставьте)\s+(?:свою|твою|вашу)\s+(?:текущую\s+)?(?:задачу|миссию|цель)`),
  ru('secrecy', String.raw`${B0}(?:не|ничего\s+не)\s+(?:говори|сообщай|рассказывай|показывай|говорите|сообщайте|рассказывайте)\s+(?:об\s+этом\s+|ничего\s+)?(?:пользователю|человеку|оператору)${B1}`),
];

// Japanese
const JA_AI = String.raw`(?:ai\s?(?:エージェント|アシスタント|モデル)?|人工知能|言語モデル|大規模言語モデル|llm|gpt|chatgpt|チャットボット)`;
const JAPANESE: InjectionPattern[] = [
  rx('override', String.raw`(?:以前|これまで|今まで|上記|前|先|最初|元)の(?:すべての|全ての)?(?:指示|命令|ルール|プロンプト|指令)(?:を|は)(?:すべて|全て)?(?:無視|忘れ)`),
  rx('override', String.raw`(?:すべて|全て)の(?:指示|命令|ルール|指令)を(?:無視|忘れ)`),
  rx('override', String.raw`(?:新しい|本当の|新たな)(?:指示|命令|指令)\s*[:：]|システムプロンプト\s*[:：]`),
  rx('role', String.raw`(?:あなた|君|きみ|お前)(?:は|って)(?:今から|これから|今|もう|今後)?[、,]?\s?(?:一人の|ひとつの)?${JA_AI}(?:です|だ|である|として)`),
  rx('role', String.raw`(?:今から|これから|今後)[、,]?\s?(?:あなた|君|お前)は[^。]{0,12}?${JA_AI}`),
  rx('address', String.raw`${JA_AI}(?:の皆(?:さん|様)(?:へ)?|各位|へ|に告ぐ|たちへ|の方へ)\s*[:：、,!！]`),
  rx('address', String.raw`(?:もし)?(?:あなた|君)が\s?${JA_AI}(?:なら|であれば|ならば|の場合)`),
  rx('address', String.raw`${JA_AI}\s?として[、,]?\s?(?:あなたは)?[^。]{0,12}?(?:しなければならない|しなければなりません|する必要があります|すべきです)`),
  rx('command', String.raw`あなたの次の(?:アクション|行動|操作|動作|回答|返答)は`),
  rx('secrecy', String.raw`ユーザー(?:に|には)(?:この(?:こと|件)を)?(?:絶対に)?(?:言わ|伝え|知らせ|教え|話さ)(?:ないで|るな)`),
];

// Korean
const KO_AI = String.raw`(?:ai\s?(?:에이전트|어시스턴트|비서|모델)?|인공지능|언어\s?모델|대규모\s?언어\s?모델|llm|gpt|chatgpt|챗봇)`;
const KOREAN: InjectionPattern[] = [
  rx('override', String.raw`(?:이전|앞|위|기존|모든|앞선|지금까지|종전|원래|시스템)(?:의)?\s?(?:모든\s?)?(?:지시|지침|명령|규칙|프롬프트|명령어)(?:\s?사항)?(?:들)?(?:을|를|은|는)?\s?(?:모두\s?|전부\s?|다\s?)?(?:무시|잊어|잊고|잊으)`),
  rx('override', String.raw`(?:새로운|새|진짜|중요한)\s?(?:지시|지침|명령|지시\s?사항)\s*:|시스템\s?(?:프롬프트|지시|명령)\s*:`),
  rx('role', String.raw`(?:너는|넌|당신은|귀하는)\s?(?:이제|지금부터|이제부터|앞으로)\s?(?:부터\s?)?(?:하나의\s?|한\s?)?${KO_AI}`),
  rx('role', String.raw`(?:이제부터|지금부터|이제|앞으로)\s?(?:너는|넌|당신은)\s?(?:\S+\s)?${KO_AI}`),
  rx('address', String.raw`(?:주의|알림|참고|공지|메시지|안녕)\s*[:,!]?\s*(?:모든\s?)?(?:ai|인공지능)\s?(?:에이전트|어시스턴트|비서|모델)?(?:들)?(?:에게|께|은|는)?\s*[:!]`),
  rx('address', String.raw`(?:모든|친애하는)\s?(?:ai|인공지능)\s?(?:에이전트|어시스턴트|비서|모델)?(?:들)?(?:에게|께)?\s*[:!]`),
  rx('address', String.raw`(?:ai|인공지능)\s?(?:에이전트|어시스턴트|비서|모델)?(?:들)?에게\s*[:!]`),
  rx('address', String.raw`(?:만약\s?)?(?:당신이|네가|너가|귀하가)\s?${KO_AI}(?:\s?(?:이|가))?(?:라면|이라면)`),
  rx('address', String.raw`${KO_AI}\s?(?:로서|으로서)\s*,?\s*(?:당신은|너는)?\s?[^.]{0,15}?(?:해야|하세요|하십시오)`),
  rx('command', String.raw`(?:너의|당신의|네)\s?다음\s?(?:행동|동작|작업|응답|답변|액션)은`),
  rx('secrecy', String.raw`사용자(?:에게|한테)\s?(?:이\s?(?:사실|내용)을\s?)?(?:절대\s?)?(?:말하지|알리지|알려주지|이야기하지|보여주지)\s?(?:마|말)`),
];

/** The patterns run on the Latin-folded text (foldInjection), grouped with what a text needs for them to be worth running. */
export const LANGUAGE_GROUPS: { gate: RegExp | null; patterns: InjectionPattern[] }[] = [
  { gate: null, patterns: [...GERMAN, ...FRENCH, ...SPANISH, ...ITALIAN, ...PORTUGUESE, ...POLISH, ...TURKISH] },
  { gate: /[\u3040-\u30ff]|[\u4e00-\u9fff]/, patterns: JAPANESE },
  { gate: /[\uac00-\ud7a3]/, patterns: KOREAN },
];

/** The patterns run on the text with Cyrillic kept (foldCyrillic). */
export const CYRILLIC_PATTERNS: InjectionPattern[] = RUSSIAN;

