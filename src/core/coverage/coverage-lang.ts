/**
 * The language tables of the coverage check and the offline summary: how a person states a rule
 * or constraint, acknowledges, and how an assistant announces its next step, per language, plus
 * the stop words left out of "salient words". To support a language, add one row to LANGUAGES.
 */

export interface LanguageTable {
  /** BCP 47 code, for tests and reports. */
  code: string;
  /** A sentence matching one of these states a rule, constraint or preference. */
  instructions: readonly RegExp[];
  /** Whole messages that only acknowledge (compared lowercased, punctuation stripped). */
  acknowledgements: readonly string[];
  /** Short exclamations or praise that make no request ("wow", "it works", "you are a monster"). */
  exclamations: RegExp;
  /** A sentence matching one of these announces what comes next. */
  nextSteps: readonly RegExp[];
  /** A sentence matching one of these states a decision or a finding (offline summary's Key Decisions). */
  decisions: readonly RegExp[];
  /** Words that never make an item's salient words. */
  stopWords: readonly string[];
}

// \b does not see accented letters as word characters, so these patterns use explicit
// lookarounds: (?<![\p{L}\p{N}_]) and (?![\p{L}\p{N}_]).
const LEAD = "(?<![\\p{L}\\p{N}_])(?:";
const TAIL = ")(?![\\p{L}\\p{N}_])";
const W = (body: string) => new RegExp(`${LEAD}${body}${TAIL}`, "iu");

const ENGLISH: LanguageTable = {
  code: "en",
  instructions: [
    W("always|never|must(?:n't| not)?|don't|do not|dont|shouldn't|should not|make sure|ensure|avoid"),
    W("from now on|going forward|remember to|keep (?:it|them|the|using)|stick to|no more"),
    W("use \\S+(?: \\S+)? (?:not|instead of|rather than)|instead of|rather than|only use|prefer"),
    W("needs? to be|has to be|have to be|please (?:use|keep|add|remove|don't)"),
  ],
  acknowledgements: [
    "ok",
    "okay",
    "k",
    "kk",
    "thanks",
    "thank you",
    "thx",
    "ty",
    "yes",
    "yep",
    "yeah",
    "no",
    "nope",
    "yo",
    "wow",
    "nice",
    "cool",
    "great",
    "perfect",
    "good",
    "sure",
    "alright",
    "right",
    "done",
    "continue",
    "go on",
    "go ahead",
    "proceed",
    "can leave it",
    "leave it",
    "fine",
    "got it",
    "lgtm",
    "ship it",
  ],
  exclamations:
    /^(?:wow|oh|ah|jesus|damn|nice|cool|great|awesome|haha|lol|yay|it works|everything works|works|you(?: are|'re) (?:a |the )?\S+)$/,
  nextSteps: [
    W("next,? (?:i(?:'ll| will| am going to)|we(?:'ll| will| should)|step)"),
    W("i(?:'ll| will) (?:now|then|next)|then i(?:'ll| will)|afterwards,? i(?:'ll| will)|next steps?:"),
  ],
  decisions: [
    W(
      "decided|decision|we(?:'ll| will) (?:go with|use|keep)|i(?:'ll| will) use|instead of|rather than|chose|the fix is",
    ),
    W("root cause|the (?:problem|issue|bug) (?:is|was)|turns out|because of"),
  ],
  stopWords: (
    "the a an and or but if then than that this these those there here is are was were be been being " +
    "to of in on at by for with from into onto as it its it's we you i me my our your they them he she " +
    "do does did done not no yes so very just also can could would should will shall may might must " +
    "have has had get got make use using want need please all any some each every other such what which " +
    "who when where why how about again only always never don't dont let lets let's like ok okay"
  ).split(" "),
};

const GERMAN: LanguageTable = {
  code: "de",
  instructions: [
    W("immer|nie|niemals|auf keinen fall|stell(?:e)? sicher|achte darauf|vermeide|ab jetzt|künftig"),
    W(
      "muss|müssen|musst|sollte|sollten|sollst|darf nicht|dürfen nicht|nicht (?:ändern|löschen|anfassen|verwenden|benutzen)",
    ),
    W(
      "(?:verwende|benutze|nutze) \\S+(?: \\S+)? (?:statt|anstatt|nicht)|statt|anstatt|nur noch|bitte (?:keine?|nicht)",
    ),
  ],
  exclamations: /^(?:wow|super|klasse|toll|geil|es (?:läuft|geht|funktioniert))$/,
  acknowledgements: [
    "ja",
    "nein",
    "danke",
    "danke schön",
    "passt",
    "gut",
    "super",
    "weiter",
    "mach weiter",
    "alles klar",
    "genau",
    "stimmt",
  ],
  decisions: [W("entschieden|entscheidung|statt|anstatt|ursache|das problem (?:ist|war)")],
  nextSteps: [W("als nächstes|danach werde ich|dann werde ich|nächster schritt|nächste schritte")],
  stopWords: (
    "der die das den dem des ein eine einen einem einer und oder aber wenn dann als dass ist sind war " +
    "waren sein zu von in im an am auf bei für mit aus nach es wir du ich mir mein unser ihr sie er " +
    "nicht kein keine ja nein so sehr auch kann könnte würde soll muss bitte immer nie nur statt"
  ).split(" "),
};

const FRENCH: LanguageTable = {
  code: "fr",
  instructions: [
    W(
      "toujours|jamais|il faut|il ne faut pas|assure-toi|assurez-vous|veille à|veillez à|désormais|dorénavant",
    ),
    W(
      "doit|doivent|dois|ne (?:\\S+ )?pas|n'(?:\\S+) pas|évite|évitez|au lieu de|plutôt que|uniquement|seulement",
    ),
    W("(?:utilise|utilisez) \\S+(?: \\S+)? (?:pas|au lieu de|plutôt que)"),
  ],
  exclamations: /^(?:wow|génial|super|ça marche|ça fonctionne)$/,
  acknowledgements: [
    "oui",
    "non",
    "merci",
    "merci beaucoup",
    "d'accord",
    "ok merci",
    "parfait",
    "super",
    "bien",
    "continue",
    "vas-y",
    "c'est bon",
  ],
  decisions: [W("décidé|décision|au lieu de|plutôt que|la cause|le problème (?:est|était)")],
  nextSteps: [W("ensuite,? je vais|puis je vais|prochaine étape|prochaines étapes|je vais maintenant")],
  stopWords: (
    "le la les un une des et ou mais si alors que qui est sont était être à de du en au aux sur par " +
    "pour avec dans ce cette ces il elle nous vous je tu on ils elles ne pas plus très aussi peut " +
    "doit faut toujours jamais seulement"
  ).split(" "),
};

const SPANISH: LanguageTable = {
  code: "es",
  instructions: [
    W("siempre|nunca|jamás|asegúrate|asegúrese|asegúrense|a partir de ahora|de ahora en adelante"),
    W(
      "debe|debes|deben|tienes que|hay que|no (?:uses|hagas|cambies|toques|borres|añadas|pongas|modifiques|elimines)",
    ),
    W(
      "(?:usa|utiliza|use) \\S+(?: \\S+)? (?:no|en lugar de|en vez de)|en lugar de|en vez de|evita|evitar|solo|sólo",
    ),
  ],
  exclamations: /^(?:guau|genial|funciona|ya funciona)$/,
  acknowledgements: [
    "sí",
    "si",
    "no",
    "gracias",
    "muchas gracias",
    "vale",
    "bien",
    "perfecto",
    "genial",
    "claro",
    "sigue",
    "adelante",
    "de acuerdo",
  ],
  decisions: [W("decidido|decisión|en lugar de|en vez de|la causa|el problema (?:es|era)")],
  nextSteps: [W("a continuación|luego voy a|después voy a|siguiente paso|próximos pasos|ahora voy a")],
  stopWords: (
    "el la los las un una unos unas y o pero si entonces que es son era ser a de del en al por para " +
    "con sin este esta estos estas lo le les nos yo tu él ella no más muy también puede debe siempre " +
    "nunca solo sólo"
  ).split(" "),
};

export const LANGUAGES: readonly LanguageTable[] = [ENGLISH, GERMAN, FRENCH, SPANISH];

const STOP = new Set(LANGUAGES.flatMap((l) => l.stopWords));
const ACKS = new Set(LANGUAGES.flatMap((l) => l.acknowledgements));

/** All languages' instruction words in one regex without the word-boundary checks: one scan rejects most sentences. */
const ANY_INSTRUCTION = new RegExp(
  LANGUAGES.flatMap((l) =>
    l.instructions.map((r) => `(?:${r.source.slice(LEAD.length, -TAIL.length)})`),
  ).join("|"),
  "i",
);

/**
 * A list of W() patterns as one: W(a) or W(b) matches exactly when W(a|b) does (an alternation
 * tries every match of each branch at each position, the boundary checks included). One regex
 * compiles once: with \p{L} under /iu, compiling is what the first coverage check of a process
 * spends most on (about 20 ms for the separate patterns).
 */
function oneOf(patterns: readonly RegExp[]): RegExp {
  return W(patterns.map((r) => `(?:${r.source.slice(LEAD.length, -TAIL.length)})`).join("|"));
}

const BY_LANGUAGE = LANGUAGES.map((l) => ({
  code: l.code,
  instruction: oneOf(l.instructions),
  nextStep: oneOf(l.nextSteps),
  decision: oneOf(l.decisions),
}));

/** The languages whose instruction patterns match `sentence` (empty: not an instruction). */
export function instructionLanguages(sentence: string): string[] {
  if (!ANY_INSTRUCTION.test(sentence)) return [];
  const out: string[] = [];
  for (const l of BY_LANGUAGE) if (l.instruction.test(sentence)) out.push(l.code);
  return out;
}

/** True when `sentence` announces a next step in one of the languages. */
export function isNextStep(sentence: string): boolean {
  return BY_LANGUAGE.some((l) => l.nextStep.test(sentence));
}

/** True when `sentence` states a decision or finding in one of the languages. */
export function isDecision(sentence: string): boolean {
  return BY_LANGUAGE.some((l) => l.decision.test(sentence));
}

export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/**
 * True for a message that only acknowledges ("ok", "thanks", "can leave it", "wow, it works"):
 * every comma- or sentence-separated part is an acknowledgement or a short exclamation.
 */
export function isAcknowledgement(text: string): boolean {
  const parts = text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .split(/[,.!;\n]+/)
    .map((p) => p.replace(/[^\p{L}\p{N}' -]/gu, "").trim())
    .filter((p) => p !== "");
  if (parts.length === 0) return true;
  return parts.every((p) => ACKS.has(p) || LANGUAGES.some((l) => l.exclamations.test(p)));
}
