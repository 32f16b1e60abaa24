/**
 * Word families: the lexemes of one word's derivations, beyond what the index's English
 * (Snowball) stemmer conflates. It conflates the inflections ("registers", "registered" →
 * "regist") but a derivation often keeps a stem of its own, so a need phrased with the verb
 * misses a spec written with the noun: "registration" → "registr", "notification" → "notif"
 * (but "notify" → "notifi"), "subscription" → "subscript" (but "subscribe" → "subscrib"),
 * "delivery" → "deliveri" (but "deliver" → "deliv"), "shipment", "creation", "creator".
 *
 * `familyOf` strips what the stemmer leaves of a derivational ending from a lexeme (as
 * `to_tsvector('english', …)` produces it, checked against PGlite), so two lexemes of one family
 * share a key. Each rule keeps a stem of at least `MIN_STEM` letters: below that, a shared
 * beginning says little ("portion" is no "port", "signal" no "sign", "party" no "part").
 */

/** Letters a stem must keep after a derivational ending is stripped, unless the rule says otherwise. */
const MIN_STEM = 5;
/**
 * Endings stripped from one lexeme at most: a derivation carries two ("deliveri" → "deliver" →
 * "deliv", "suppli-er"); more is a compound ("connectionerror") taken apart.
 */
const MAX_STRIPS = 2;

/**
 * Lexemes that look derived and whose stripped stem is another word: "question" is no "quest",
 * "creature" no "create", "charter" no "chart", "director" no "direct" (direct debit), a
 * "projector" no "project", a bank "statement" no "state", "supplement" no "supply", "committee"
 * no "commit".
 */
const NOT_DERIVED = new Set(['question', 'creatur', 'charter', 'director', 'projector', 'statement', 'supplement', 'committe']);

/**
 * Short families the rules cannot reach safely, each one certain: "payment" is paying, "failure"
 * failing. A rule on "-ment" or "-ure" with a 3–4-letter stem would also make "comment" a
 * "com" and "feature" a "feat".
 */
const SHORT_FAMILIES: Record<string, string> = {
  payment: 'pay',
  payer: 'pay',
  paye: 'pay',
  failur: 'fail',
  sender: 'send',
  shipper: 'ship',
};

interface Rule {
  /** The ending as the stemmer leaves it. */
  ending: RegExp;
  replacement: string;
  /** Letters the stem keeps at least (default `MIN_STEM`). */
  minStem?: number;
}

/**
 * The first rule that applies strips its ending, then the rules apply again to what is left, up
 * to `MAX_STRIPS` times ("deliveri" → "deliver" → "deliv"). Only endings the stemmer leaves behind: it already removes most "-al", "-ance",
 * "-ive", "-ize", "-ity" and "-ation" where they are in its R2 region ("approval" → "approv").
 */
const RULES: Rule[] = [
  // describe/description, subscribe/subscription, transcribe/transcript: the Latin stem alternates.
  { ending: /script$/, replacement: 'scrib' },
  // consume/consumption, assume/assumption.
  { ending: /sumpt$/, replacement: 'sum' },
  // submit/submission, transmit/transmission, admit/admission, emit/emission. Not "commission"
  // (a fee, not a commit) nor "permission" (access, not a permit).
  { ending: /(?<=^(?:sub|trans|ad|e|o))miss$/, replacement: 'mit', minStem: 3 },
  // The stemmer's "y" → "i": notify "notifi" / notification "notif", delivery "deliveri" /
  // deliver. Not "-ory", "-ty", "-cy": "inventory", "factory", "directory", "county", "treaty",
  // "royalty", "warranty", "policy" are no "invent", "factor", "direct", "count", "treat",
  // "royal", "warrant", "police".
  { ending: /(?<!or|[tc])i$/, replacement: '' },
  // register "regist" / registration "registr"; administer / administration.
  { ending: /istr$/, replacement: 'ist' },
  // create/creation ("creation" is too short for the stemmer's R2). Only after "t" or "s", as the
  // stemmer's own rule: "region", "union" are not derived.
  { ending: /(?<=[st])ion$/, replacement: '' },
  // ship/shipment, settle/settlement, state/statement: a noun of the act. Four letters suffice:
  // shorter stems are "comment", "moment", "element".
  { ending: /ment$/, replacement: '', minStem: 4 },
  // depart/departure, architect/architecture.
  { ending: /(?<=t)ur$/, replacement: '' },
  // The agent: creator, detector, supplier ("suppli" → supply), printer, visitor, deliver (whose
  // "-er" the stemmer kept in "delivery"). Five letters: "poster", "corner", "number", "master"
  // are no "post", "corn", "numb", "mast".
  { ending: /(?:er|or)$/, replacement: '' },
  // What "-er" leaves of a doubled consonant (the stemmer leaves "debugg", "programm", "submitt"):
  // debug, program, submit. Not "ll", "ss", "ff", "rr": "call", "access", "staff", "error".
  { ending: /([bdgkmnpt])\1$/, replacement: '$1' },
  // employee "employe", trainee "traine", attendee "attende", settle (of "settlement"): the stemmer
  // drops a final "e" from all but short words.
  { ending: /e$/, replacement: '', minStem: 5 },
];

/** The key of a stemmed lexeme's word family: lexemes of one family share it ("registr" and "regist" → "regist"). */
export function familyOf(lexeme: string): string {
  if (!/^[a-z]+$/.test(lexeme) || NOT_DERIVED.has(lexeme)) return lexeme;
  const short = SHORT_FAMILIES[lexeme];
  if (short) return short;
  let key = lexeme;
  for (let strips = 0; strips < MAX_STRIPS; strips++) {
    const next = strip(key);
    if (next === key) break;
    key = next;
  }
  return key;
}

/** The lexeme without the first ending a rule strips from it, or as it is. */
function strip(lexeme: string): string {
  for (const { ending, replacement, minStem = MIN_STEM } of RULES) {
    const next = lexeme.replace(ending, replacement);
    if (next !== lexeme && next.length >= minStem) return next;
  }
  return lexeme;
}

/**
 * The lexemes a lexeme's family may hold in an index, without the lexeme itself: its key with
 * each ending the rules strip put back ("regist" → "registr", "registri"; "notifi" → "notif";
 * "ship" → "shipment", "shipper"), kept when they strip back to the same key. Search looks them
 * up exactly, by the lexicon's primary key, with the query's own words: no extra round trip.
 */
export function familyVariants(lexeme: string): string[] {
  const key = familyOf(lexeme);
  if (!/^[a-z]{3,}$/.test(lexeme)) return [];
  const endings = ['', 'i', 'e', 'r', 'ri', 'er', 'or', 'eri', 'ori', 'ier', 'ion', 'ment', 'ement', 'ur', 'ist', 'istr'];
  const stems = [key, key.replace(/scrib$/, 'script'), key.replace(/sum$/, 'sumpt'), key.replace(/mit$/, 'miss'), `${key}${key.at(-1)}`];
  const short = Object.entries(SHORT_FAMILIES)
    .filter(([, family]) => family === key)
    .map(([word]) => word);
  const candidates = new Set([...stems.flatMap((stem) => endings.map((ending) => stem + ending)), ...short]);
  return [...candidates].filter((candidate) => candidate !== lexeme && familyOf(candidate) === key);
}

/**
 * The same event in words of no one family: people "sign up" where specs say "register", a
 * parcel "ships" where the spec says "dispatch"; an irregular past ("paid", "sent") that no stem
 * joins to its verb. Each entry: the forms that name the event, and the words that name it too.
 * General English only, and few: each word added to a query is one more thing to match.
 */
const PHRASE_EQUIVALENTS: { forms: RegExp; words: string[] }[] = [
  {
    forms: /\bsign(?:s|ed|ing)?[\s-]*ups?\b|\bregist(?:er|ers|ered|ering|ration|rations)\b|\benrol(?:l|ls|s|led|ling|ment|ments|lment|lments)?\b/,
    words: ['signup', 'register', 'registration', 'enrol'],
  },
  // No "sign-in": the index also holds its "sign", the word of signatures.
  { forms: /\b(?:log(?:s|ged|ging)?|sign(?:s|ed|ing)?)[\s-]*in\b|\blogins?\b/, words: ['login', 'authenticate'] },
  { forms: /\b(?:log(?:s|ged|ging)?|sign(?:s|ed|ing)?)[\s-]*out\b|\blogouts?\b/, words: ['logout'] },
  { forms: /\bship(?:s|ped|ping)?\b|\bdispatch(?:es|ed|ing)?\b/, words: ['ship', 'shipment', 'dispatch'] },
  { forms: /\bpaid\b/, words: ['pay', 'payment'] },
  { forms: /\bsent\b/, words: ['send'] },
  { forms: /\bsold\b/, words: ['sell', 'sale'] },
  { forms: /\bbought\b/, words: ['buy', 'purchase'] },
  // Not "check out" itself: "check out this API" is "look at".
  { forms: /\b(?:(?:checks|checked|checking)[\s-]*out|checkouts?)\b/, words: ['checkout', 'purchase'] },
  { forms: /\b(?:opt(?:s|ed|ing)?[\s-]*out|unsubscrib(?:e|es|ed|ing))\b/, words: ['unsubscribe'] },
  { forms: /\bpick(?:s|ed|ing)?[\s-]*up\b|\bpickups?\b/, words: ['pickup', 'collection'] },
  // Not "take off the label".
  { forms: /\b(?:takes|took|taking|taken)\s+off\b/, words: ['departure', 'depart'] },
  // Not "prices are down".
  { forms: /\b(?:goes|go|went|gone)\s+(?:down|offline)\b|\b(?:is|are)\s+offline\b|\boutages?\b/, words: ['outage', 'downtime'] },
];

/**
 * Words to look up beside the query's own, for the event phrases it holds that the specs may word
 * otherwise ("tell me when a customer signs up" → signup, register, registration, enrol); none the
 * query already holds.
 */
export function phraseEquivalents(query: string): string[] {
  const text = query.toLowerCase();
  const typed = new Set(text.match(/[\p{L}\p{N}-]+/gu) ?? []);
  const words = PHRASE_EQUIVALENTS.filter(({ forms }) => forms.test(text)).flatMap((entry) => entry.words);
  return [...new Set(words)].filter((word) => !typed.has(word));
}
