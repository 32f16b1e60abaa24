/**
 * Whether a need asks to be told of events ("tell me when a new customer registers") rather than
 * to act or to read ("register a customer", "list new customers"). An API answers such a need
 * with an operation that delivers events to the caller (`deliversEvents`): an AsyncAPI channel to
 * subscribe to, a GraphQL subscription, a server-streaming RPC. Rules over words and short
 * patterns, no model, written against the labelled needs of `eval/kinds/needs.jsonl` (`event`:
 * all 44 agree, so that set no longer measures them independently).
 */

/** What a told-verb's clause starts with: "when", "whenever", "as soon as", "the moment". */
const WHEN = String.raw`(?:when|whenever|once|as\s+soon\s+as|the\s+moment|each\s+time|every\s+time|anytime|any\s+time)`;
/** Who is told: the caller ("me", "us") or what the caller runs ("my app", "our backend", "our team"). */
const THE_CALLER = String.raw`(?:me|us|(?:my|our)\s+(?:\S+\s+)?(?:app|apps|application|backend|service|system|server|team|bot|client|code))`;
/** Nouns of something delivered to the caller when it happens. */
const EVENT_NOUN = String.raw`(?:events?|notifications?|alerts?|updates|webhooks?|web\s+hooks?|callbacks?|pings?|push(?:es)?)`;

const EVENT_PATTERNS = [
  // Asking to be told: "tell me when", "alert me if", "notify our backend of", "email us about".
  // Not "tell me about": that asks for facts.
  String.raw`\b(?:tells?|reminds?)\s+${THE_CALLER}\s+(?:${WHEN}|if)\b`,
  String.raw`\b(?:notif(?:y|ies)|alerts?|informs?|warns?|pings?|e-?mails?|texts?|messages?|pages?)\s+${THE_CALLER}\s+(?:${WHEN}|if|of|about|on|after)\b`,
  // "Send me an email when…": sent to the caller, unlike "send an email".
  String.raw`\bsends?\s+${THE_CALLER}\s+(?:\S+\s+){0,2}?(?:notifications?|alerts?|e-?mails?|messages?|texts?|sms|webhooks?|events?|updates|pings?)\b`,
  // Telling someone else when it happens ("alert a shopper when a product gets cheaper"): still
  // an event to catch. Not with "if": "warn users if their password is weak" is a check.
  String.raw`\b(?:tells?|notif(?:y|ies)|alerts?|informs?|warns?|pings?|reminds?)\s+(?:\S+\s+){1,3}?${WHEN}\b`,
  String.raw`\blets?\s+(?:${THE_CALLER}|\S+)\s+know\b`,
  String.raw`\bkeep\s+${THE_CALLER}\s+(?:posted|updated|informed|in\s+the\s+loop)\b`,
  String.raw`\b(?:get|gets|getting|be|being|stay|staying)\s+(?:notified|alerted|informed|told|pinged|warned)\b`,
  String.raw`(?:^|\b(?:want|need|like|wish)\s+to\s+|\bto\s+)know\s+(?:(?:right\s+away|immediately|instantly|straight\s+away|at\s+once)\s+)?(?:when|whenever|as\s+soon\s+as|the\s+moment)\b`,
  // Something delivered when it happens: "an event when a product is out of stock", "push
  // notification when a bank reverses a charge", "webhook when an invoice is paid".
  String.raw`\b${EVENT_NOUN}\s+(?:${WHEN}|on\s+(?:each|every|any|new))\b`,
  String.raw`\b(?:get|getting|receive|receiving|want|need)\s+(?:(?:a|an|some|push|email|sms|text|real-?time|instant|live)\s+){0,2}(?:notifications?|alerts?|updates|pings?)\b`,
  // Recurrence and immediacy: "whenever a user signs up", "the moment a package is delivered",
  // "as they come in". Not "as soon as possible", "at the moment", "each time zone".
  String.raw`\bwhenever\b`,
  String.raw`\b(?:every|each)\s+time\b(?!\s*(?:zones?|slots?|stamps?|series|frames?|periods?|windows?|steps?|entr(?:y|ies)|sheets?|ranges?|units?))`,
  String.raw`\bas\s+soon\s+as\b(?!\s+possible)`,
  String.raw`(?<!\bat\s)\bthe\s+moment\s+(?:a|an|the|any|someone|somebody|something|it|they|my|our|their)\b`,
  String.raw`\bas\s+(?:they|it|these|those)\s+(?:(?:are|is|get|gets)\s+(?:\w+ed|taken|made|sent|paid|sold|done)|(?:happen|occur|arrive|come|change|complete|update|appear)s?)\b`,
  // Taking events in: "subscribe to order updates", "listen for sensor readings", "react to failed
  // payments", "consume order events". Not "subscribe a user to a newsletter" or "subscribe to a
  // premium plan" (a subscription to manage or buy), "listen to a podcast", "receive a payment".
  String.raw`\bsubscrib(?:e|es|ed|ing)\s+(?:to|for)\s+(?!(?:(?:a|an|the|our|my|this|that)\s+)?(?:\S+\s+)?(?:plans?|tiers?|newsletters?|mailing|memberships?|products?|packages?|services?|subscriptions?)\b)`,
  String.raw`\blisten(?:s|ed|ing)?\s+(?:for|on)\b`,
  String.raw`\blisten(?:s|ed|ing)?\s+to\s+(?:\S+\s+){0,3}?(?:events?|changes?|updates|messages?|topics?|channels?|queues?|streams?|notifications?|webhooks?)\b`,
  String.raw`\breact(?:s|ed|ing)?\s+(?:to|on|${WHEN})\b`,
  String.raw`\bwatch(?:es|ed|ing)?\s+for\b`,
  String.raw`\b(?:receiv(?:e|es|ed|ing)|consum(?:e|es|ed|ing)|ingest(?:s|ed|ing)?|handl(?:e|es|ed|ing))\s+(?:\S+\s+){0,3}?(?:events?|messages?|webhooks?|callbacks?|notifications?)\b`,
  // Streams and feeds: "stream of trade events", "live feed of readings", "real-time stock prices".
  // Not "stream of bytes", "live stream a concert", "real-time translation", "live events" (concerts).
  String.raw`\b(?:streams?|feeds?)\s+of\b(?!\s+(?:bytes|binary|audio|video|text|characters|tokens)\b)`,
  String.raw`\b(?:event|data|change|message|price|quote|market|trade|tick|activity)\s+(?:streams?|feeds?)\b|\b(?:live|real-?time)\s+feeds?\b`,
  String.raw`\b(?:real-?time|realtime|streaming|instant|live)\s+(?:\S+\s+)?(?:updates|events|notifications|alerts|prices|quotes|ticks|readings|changes|measurements|positions|locations)\b`,
];

/**
 * Managing a webhook or a subscription is a call to make, not an event to catch: "create a
 * webhook subscription", "I want to register a webhook for new orders", "cancel a subscription".
 * Such a need is answered by a REST operation (`POST /webhooks`), so it vetoes the patterns when
 * it is what the need asks to do (its first verb), not an event it names ("tell me when users
 * update their subscriptions").
 */
const MANAGING = String.raw`(?:^|\b(?:to|i|we|please|then|and)\s+)(?:create|register|add|delete|remove|list|update|edit|manage|configure|set\s+up|setup|rotate|verify|validate|test|retry|replay|resend|disable|enable|cancel|pause|resume|renew)\s+(?:\S+\s+){0,3}?(?:webhooks?|web\s+hooks?|callbacks?|subscriptions?|signing\s+secrets?)\b`;

const EVENT_INTENT = new RegExp(EVENT_PATTERNS.join('|'), 'iu');
const MANAGES_DELIVERY = new RegExp(MANAGING, 'iu');

/**
 * Whether the need is phrased as wanting to be told of an event: "notify me when a parcel ships",
 * "subscribe to order updates", "stream of trade events" (not "send a notification", "list new
 * customers", "create a webhook subscription"). A when-clause alone is not one: in "capture it
 * later when the order ships" it says when to act, not what to be told.
 */
export function eventIntent(query: string): boolean {
  const text = asTyped(query);
  return EVENT_INTENT.test(text) && !MANAGES_DELIVERY.test(text);
}

/**
 * Operations that deliver events to whoever uses the API, as the format plugins name them
 * (`libs/api-specs/src/formats/*`); search reads them in SQL (`deliversEvents`):
 * - AsyncAPI 2.x describes operations from the client's side: `subscribe` holds the messages the
 *   application produces, which a client subscribes to (`PUBLISH` is what a client sends it).
 * - AsyncAPI 3.0 describes the application's own actions: `send` is what it produces, so what a
 *   consumer receives (`RECEIVE` is what it consumes). The plugin's call example agrees: both
 *   `SUBSCRIBE` and `SEND` read "Subscribe to …".
 * - GraphQL `SUBSCRIPTION`.
 * - gRPC: every method is `RPC`; a server-streaming one says so only in its operation chunk's
 *   text (`Returns: stream of …`).
 * - OpenAPI: the plugin lists `paths` alone (not 3.1 `webhooks` or callbacks), so none; MCP tools, none.
 */
export const EVENT_DELIVERY = {
  /** Each verb is one kind's alone. */
  verbs: ['SUBSCRIBE', 'SEND', 'SUBSCRIPTION'],
  streamingReturns: 'Returns: stream of ',
} as const;

/** Units of time a recurrence or a delay counts in. */
const TIME_UNIT = String.raw`(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?|mornings?|evenings?|weekdays?|weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)`;

const SCHEDULE_PATTERNS = [
  // Recurrence: "daily", "every night", "each Monday", "every 15 minutes", "once a week". Not
  // "every time" (an event: `eventIntent`).
  // As an adverb only ("send the digest daily", "run nightly at 2am"): before a noun it is what is
  // measured or sold per period ("daily temperature", "nightly prices", "monthly active users").
  String.raw`\b(?:daily|nightly|weekly|monthly|hourly|yearly|annually|quarterly|fortnightly)\b(?=\s*(?:$|[.,;:!?)]|(?:at|on|from|until|till|and|or|for|in|by|to|during|between|except|via|using|with)\b))`,
  // Not "a cron job" or "a job's schedule": a thing named, not when to act (the verb "schedule" is an action: `needAction`).
  String.raw`\b(?:periodically|on\s+a\s+(?:schedule|timer|cron)|at\s+regular\s+intervals)\b`,
  // Not "each month's invoices": what is read per period.
  String.raw`\b(?:every|each)\s+(?:(?:other|\d+|few|couple\s+of)\s+)?${TIME_UNIT}\b(?!')`,
  String.raw`\b(?:once|twice|\d+\s+times)\s+(?:a|an|per|every)\s+${TIME_UNIT}\b`,
  // At a time: "at 2am", "at 09:30", "at midnight", "at a set hour", "at a given time".
  String.raw`\bat\s+(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock|h)\b|\d{1,2}:\d{2}\b|noon|midnight|(?:a|the)\s+(?:set|given|specific|fixed|certain|later|future|scheduled|chosen)\s+(?:hour|time|date|moment))`,
  // Later: "after a delay", "in five minutes", "30 seconds later", "tomorrow", "at a later date".
  String.raw`\b(?:after|with)\s+(?:a|an|some)\s+(?:\S+\s+)?delay\b|\bdelay(?:s|ed|ing)?\s+(?:it|them|the|by|for|until)\b`,
  // A delay in minutes or hours ("retry in five minutes"); not "revenue in 30 days", "the weather
  // tomorrow", "movies playing tonight": dates of what is read.
  String.raw`\b(?:in|after)\s+(?:\d+|a|an|one|two|three|five|ten|fifteen|thirty|a\s+few|few|several)\s+(?:seconds?|minutes?|mins?|hours?|hrs?)\b|\b\d+\s+${TIME_UNIT}\s+later\b|\b(?:minutes|hours)\s+from\s+now\b`,
];
const SCHEDULE_INTENT = new RegExp(SCHEDULE_PATTERNS.join('|'), 'iu');

/**
 * Whether the need says *when* something should happen, other than "when an event happens":
 * "run a report every night at 2am", "retry this task after five minutes", "send the digest
 * daily". Such a need is answered by operations that schedule, delay or queue work (`SCHEDULING`).
 */
export function scheduleIntent(query: string): boolean {
  return SCHEDULE_INTENT.test(asTyped(query));
}

/** The query as the intents' patterns read it: straight apostrophes, single spaces. */
function asTyped(query: string): string {
  return query.replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
}

/**
 * Operations that schedule, delay or queue work, by the words of their name, path or summary
 * (stems: PostgreSQL's `~*` and JavaScript's `RegExp` read the same source).
 */
export const SCHEDULING = 'schedul|cron|recurr|delay|timer|remind|periodic|queue|postpon|defer';
