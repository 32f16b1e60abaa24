/**
 * Shorthand people type into a search box, spelled out. General API vocabulary only, and only
 * shorthand specs seldom use themselves: an expansion adds words to the query, and "ocr" spelt
 * out as "optical character recognition" outweighed "receipts" in "ocr receipts". The
 * expansion is added next to the word (both are searched), never substituted for it.
 */
const ABBREVIATIONS: Record<string, string> = {
  '2fa': 'two-factor authentication',
  acct: 'account',
  addr: 'address',
  auth: 'authentication',
  authn: 'authentication',
  authz: 'authorization',
  cfg: 'configuration',
  config: 'configuration',
  db: 'database',
  dob: 'date of birth',
  doc: 'document',
  docs: 'documents',
  env: 'environment',
  geo: 'geolocation',
  i18n: 'internationalization',
  img: 'image',
  imgs: 'images',
  info: 'information',
  ip: 'ip address',
  k8s: 'kubernetes',
  kyc: 'know your customer identity verification',
  l10n: 'localization',
  mfa: 'multi-factor authentication',
  msg: 'message',
  msgs: 'messages',
  notif: 'notification',
  notifs: 'notifications',
  org: 'organization',
  otp: 'one-time password verification code',
  pic: 'picture image',
  pics: 'pictures images',
  pwd: 'password',
  qty: 'quantity',
  repo: 'repository',
  repos: 'repositories',
  sms: 'text message',
  sso: 'single sign-on',
  stt: 'speech to text',
  tts: 'text to speech',
  tx: 'transaction',
  txn: 'transaction',
  txns: 'transactions',
  usr: 'user',
  vid: 'video',
};

/** Whether a lower-case word is shorthand that `expandAbbreviations` spells out ("acct"). */
export function isAbbreviation(word: string): boolean {
  return Object.hasOwn(ABBREVIATIONS, word);
}

/** The query with common abbreviations spelled out beside them ("sms otp" → "sms (text message) otp (…)"). */
export function expandAbbreviations(query: string): string {
  return query.replace(/[\p{L}\p{N}]+/gu, (word) => {
    const expansion = ABBREVIATIONS[word.toLowerCase()];
    return expansion ? `${word} (${expansion})` : word;
  });
}

/**
 * How people open a request to a search box: "find me APIs that", "I need an API to", "is there
 * a service for", "how can I", "what is the best way to", "help me". The words say nothing about
 * the need, and some are spec words ("need", "service", "way", "help"), so they drew keyword
 * matches of their own (an eval run with "I need an API to " before every query: keyword nDCG@10
 * 0.621 → 0.598; "What is the best way to ": 0.562). "Services", "tools", "providers" and
 * "platforms" are often what is searched for ("list services for a namespace", "find providers
 * that accept medicaid"): they open a request only after "a", "some", "any" or "all" in a
 * request phrase ("is there a service for", "show me all services that").
 */
const AN_API = String.raw`(?:(?:an?|some|any|the|all)\s+)?(?:good\s+|best\s+)?(?:(?:web|rest|http)\s+(?:apis?|services?)|apis?)`;
const A_SERVICE = String.raw`(?:an?|some|any|all)\s+(?:good\s+|best\s+)?(?:services?|tools?|platforms?|providers?)`;
const APOSTROPHE = `['’]`;
const ASKING_FOR_AN_API = [
  String.raw`(?:please\s+)?(?:(?:can|could)\s+you\s+)?(?:find|show|give|get|recommend|suggest|list|search\s+for)\s+(?:(?:me|us)\s+)?${AN_API}`,
  String.raw`(?:please\s+)?(?:(?:can|could)\s+you\s+)?(?:(?:find|show|give|get|list)\s+(?:me|us)|recommend|suggest)\s+${A_SERVICE}`,
  String.raw`(?:i|we)(?:${APOSTROPHE}m|\s+am|${APOSTROPHE}re|\s+are|${APOSTROPHE}d|\s+would)?\s+(?:need|want|like|looking\s+for|searching\s+for)\s+(?:${AN_API}|${A_SERVICE})`,
  String.raw`(?:is|are)\s+there\s+(?:${AN_API}|${A_SERVICE})`,
  String.raw`(?:(?:looking|searching)\s+for|need)\s+(?:${AN_API}|${A_SERVICE})`,
  String.raw`(?:which|what)\s+${AN_API}`,
  AN_API,
];
/** What joins the request for an API to the need: "that can", "to", "for", "which lets me". */
const API_TO = String.raw`(?:(?:that|which|who)(?:\s+(?:can|could|will|would|lets?\s+(?:me|us)|allows?\s+(?:me|us)\s+to))?|to|for|with|i\s+can\s+use\s+to|can|could)`;
const ASKING_HOW = [
  String.raw`how\s+(?:can|could|do|would|should)\s+(?:i|we)`,
  String.raw`what(?:${APOSTROPHE}s|\s+is)\s+the\s+(?:best|easiest|simplest|quickest)\s+way\s+to`,
  String.raw`is\s+there\s+(?:a|any)\s+way\s+to`,
  String.raw`is\s+it\s+possible\s+to`,
  String.raw`(?:please\s+)?help\s+(?:me|us)(?:\s+to)?`,
  String.raw`(?:i|we)(?:${APOSTROPHE}d|\s+would)?\s+(?:need|want|like|have)\s+to`,
  String.raw`(?:i${APOSTROPHE}m|i\s+am|we${APOSTROPHE}re|we\s+are)\s+trying\s+to`,
];
const REQUEST_OPENINGS = [new RegExp(`^(?:${ASKING_FOR_AN_API.join('|')})\\s+${API_TO}\\s+`, 'iu'), new RegExp(`^(?:${ASKING_HOW.join('|')})\\s+`, 'iu')];
/** Words that leave nothing to search for when they are all an opening leaves ("we have", "to"). */
const FUNCTION_WORDS = new Set(
  'a an the to of for in on at by with from and or but is are be do does did have has had we you they it them our your their this that these those there what which who how can could will would should me us i'.split(
    ' ',
  ),
);

/**
 * The query without the words that open a request ("find me APIs that process payments" →
 * "process payments"; "help me find an API to send faxes" → "send faxes"); unchanged when only
 * function words would be left ("what APIs do we have").
 */
export function withoutRequestFraming(query: string): string {
  let need = query.trim();
  for (;;) {
    const rest = REQUEST_OPENINGS.reduce((text, opening) => text.replace(opening, ''), need).trim();
    if (rest === need || !hasContentWord(rest)) return need;
    need = rest;
  }
}

function hasContentWord(text: string): boolean {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).some((word) => !FUNCTION_WORDS.has(word.toLowerCase()));
}

/** Quoted spans: "Love Mariah", 'My Rock', “Current” (not an apostrophe inside a word). */
const QUOTED = /(?:^|\s)["“'](.+?)["”'](?=[\s.,!?;:]|$)/gu;
/** A capital followed by lower case: a name, when the word does not start a sentence. */
const CAPITALISED = /^\p{Lu}\p{Ll}/u;
/** A query this long with every word capitalised is written in title case. */
const TITLE_CASE_WORDS = 4;

/**
 * The words (lower case) with which the query names something: those of a quoted title and
 * capitalised words inside a sentence ("play Taylor Swift's newest album" → taylor, swift's).
 * Acronyms (TV, EUR/USD, JSON) are not names.
 */
export function nameWords(query: string): Set<string> {
  const quoted = [...query.matchAll(QUOTED)].flatMap((match) => match[1].split(/\s+/));
  const capitalised = isTitleCase(query)
    ? []
    : query.split(/[.!?;:]\s+/).flatMap((sentence) =>
        sentence
          .trim()
          .split(/\s+/)
          .slice(1)
          .filter((word) => CAPITALISED.test(word)),
      );
  return new Set([...quoted, ...capitalised].map(bareWord).filter(Boolean));
}

/** A typed word in lower case without the punctuation around it ("Swift's," → "swift's"), as `nameWords` holds it. */
export function bareWord(token: string): string {
  return token.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

/** "Send Text Messages To Customers": every word capitalised is a style, not a list of names. */
function isTitleCase(query: string): boolean {
  const words = query.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  return words.length >= TITLE_CASE_WORDS && words.every((word) => /^[^\p{L}]*\p{Lu}/u.test(word));
}

/** An operation the query names by its path, with its method if one comes right before it ("GET /v1/charges"). */
export interface NamedOperation {
  method?: string;
  /** Lower case, without a trailing slash or query string. */
  path: string;
}

/** A word starting with a slash ("search/filter" holds none), maybe after a method. */
const NAMED_PATH = /(?:\b(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE)\s+)?(?<![^\s])(\/[^\s"'`,;()<>]*)/gi;

/** The paths the query names: a developer pastes the one they have in mind. */
export function namedOperations(query: string): NamedOperation[] {
  return [...query.matchAll(NAMED_PATH)].flatMap((match) => {
    const path = normalisePath(match[2]);
    return path.length > 1 ? [{ ...(match[1] ? { method: match[1].toUpperCase() } : {}), path }] : [];
  });
}

/**
 * Whether a spec's path (a template: `/v1/charges/{charge}`) is the named one: segment by
 * segment, a parameter matching anything ("/v1/charges/ch_123") or itself ("{charge}").
 */
export function isNamedPath(template: string, named: string): boolean {
  const [want, have] = [normalisePath(template).split('/'), named.split('/')];
  return want.length === have.length && want.every((segment, index) => segment === have[index] || /^\{[^}]*\}$/.test(segment));
}

function normalisePath(path: string): string {
  return path
    .split(/[?#]/)[0]
    .replace(/[.!?:]+$/, '')
    .replace(/(.)\/+$/, '$1')
    .toLowerCase();
}

/** The need a query expresses, as it is embedded and matched: without its framing, abbreviations spelt out. */
export function needText(query: string): string {
  return expandAbbreviations(withoutRequestFraming(query.trim()));
}

/** Words that say a named thing is someone: "directed by Sofia Coppola", "starring …". */
const BY_SOMEONE = new Set(['by', 'starring', 'featuring', 'feat']);
/** What a named someone is looked up as: a person, an artist, a user, an author. */
export const SOMEONE = ['person', 'people', 'artist', 'user', 'author', 'creator', 'member'];
/** Words before a name that are no type of it. */
const NOT_A_TYPE = new Set([...FUNCTION_WORDS, 'about', 'like', 'called', 'named', 'titled', 'between', 'versus', 'vs', 'and', 'or']);

/**
 * What the query says the things it names are, as words of a type (lower case): the noun right
 * before the name ("the movie "Titanic"" → movie, "the collection The Hobbit" → collection), or
 * someone when the name follows "by" or owns something ("directed by Sofia Coppola", "Clint
 * Eastwood's latest movie" → person, artist, user…). Empty when it does not say.
 */
export function namedThingTypes(query: string): string[] {
  const names = nameWords(query);
  if (names.size === 0) return [];
  const tokens = query.replace(/[’‘]/g, "'").split(/\s+/).filter(Boolean);
  const types = new Set<string>();
  tokens.forEach((token, index) => {
    const starts = (at: number) => at >= 0 && names.has(bareWord(tokens[at])) && /^["“']?\p{Lu}|^["“']/u.test(tokens[at]);
    if (!starts(index) || starts(index - 1)) return;
    let before = index - 1;
    while (before >= 0 && ['the', 'a', 'an'].includes(bareWord(tokens[before]))) before -= 1;
    const previous = before >= 0 ? bareWord(tokens[before]) : '';
    let last = index;
    while (last + 1 < tokens.length && names.has(bareWord(tokens[last + 1]))) last += 1;
    if (BY_SOMEONE.has(previous) || (/'s$|s'$/.test(tokens[last]) && !/^["“']/.test(tokens[index]))) SOMEONE.forEach((type) => types.add(type));
    else if (previous && !NOT_A_TYPE.has(previous) && /^\p{L}+$/u.test(previous) && tokens[before] === tokens[before].toLowerCase()) types.add(previous);
  });
  return [...types];
}
