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
 * 0.621 → 0.598; "What is the best way to ": 0.562).
 */
const API_WORD = String.raw`(?:(?:web|rest|http)\s+)?(?:apis?|services?|endpoints?|tools?|platforms?|providers?)`;
const ASKING_FOR_AN_API = [
  String.raw`(?:please\s+)?(?:(?:can|could)\s+you\s+)?(?:find|show|give|get|recommend|suggest|list|search\s+for)(?:\s+(?:me|us))?(?:\s+(?:an?|some|any|the|all))?(?:\s+(?:good|best))?\s+${API_WORD}`,
  String.raw`(?:i|we)(?:'m|\s+am|'re|\s+are)?\s+(?:need|want|looking\s+for|searching\s+for|would\s+like)(?:\s+(?:an?|some|any|the))?\s+${API_WORD}`,
  String.raw`(?:is|are)\s+there(?:\s+(?:an?|any|some))?\s+${API_WORD}`,
  String.raw`(?:which|what)\s+${API_WORD}`,
  String.raw`(?:looking\s+for|searching\s+for|need)(?:\s+(?:an?|some|any))?\s+${API_WORD}`,
  String.raw`(?:an?\s+)?${API_WORD}`,
];
/** What joins the request for an API to the need: "that can", "to", "for", "which lets me". */
const API_TO = String.raw`(?:(?:that|which|who)(?:\s+(?:can|could|will|would|lets?\s+(?:me|us)|allows?\s+(?:me|us)\s+to))?|to|for|with|i\s+can\s+use\s+to|can|could|do|does)`;
const ASKING_HOW = [
  String.raw`how\s+(?:can|could|do|would|should)\s+(?:i|we)`,
  String.raw`what(?:'s|\s+is)\s+the\s+(?:best|easiest|simplest|quickest)\s+way\s+to`,
  String.raw`is\s+there\s+(?:a|any)\s+way\s+to`,
  String.raw`is\s+it\s+possible\s+to`,
  String.raw`(?:please\s+)?help\s+(?:me|us)(?:\s+to)?`,
  String.raw`(?:i|we)(?:'d|\s+would)?\s+(?:need|want|like|have)\s+to`,
  String.raw`(?:i'm|i\s+am|we're|we\s+are)\s+trying\s+to`,
];
const REQUEST_OPENINGS = [new RegExp(`^(?:${ASKING_FOR_AN_API.join('|')})\\s+${API_TO}\\s+`, 'iu'), new RegExp(`^(?:${ASKING_HOW.join('|')})\\s+`, 'iu')];

/**
 * The query without the words that open a request ("find me APIs that process payments" →
 * "process payments"; "help me find an API to send faxes" → "send faxes"); unchanged when
 * nothing would be left.
 */
export function withoutRequestFraming(query: string): string {
  let need = query.trim();
  for (let opened = true; opened; ) {
    const rest = REQUEST_OPENINGS.reduce((text, opening) => text.replace(opening, ''), need).trim();
    opened = rest !== need && rest !== '';
    if (opened) need = rest;
  }
  return need;
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
    : query.split(/[.!?;:]\s+/).flatMap((sentence) => sentence.trim().split(/\s+/).slice(1).filter((word) => CAPITALISED.test(word)));
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

/** Whether the query refers to something by its name (see `nameWords`). */
export function namesSomething(query: string): boolean {
  return nameWords(query).size > 0;
}
