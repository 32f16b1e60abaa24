import pluralize from 'pluralize';

/**
 * Operations read as actions: what a need asks to *do* (create, cancel, pause…) against what an
 * operation does, read from its most precise text — an RPC method's, GraphQL field's or MCP
 * tool's name, a REST operation's summary or operationId, else its HTTP method. Pure code over
 * words: no model, each call bounded by the text's length (`MAX_WORDS`).
 *
 * An action is a family of verbs ("create": create, add, make, open…). Two families are either
 * the same, neighbours (reading, listing and searching; deleting and cancelling), opposites
 * (create/delete, enable/disable, grant/revoke, subscribe/unsubscribe, any verb and its "un-")
 * or just different, and the operation's fit for the need says which (`actionFit`).
 */

/** Words of a text looked at, at most: a need or a name longer than this says its action early. */
const MAX_WORDS = 40;
/** Characters of a text split at most (the regexes' work is bounded before the word count is). */
const MAX_CHARS = 600;

/** Verb families; a verb belongs to one. "un-"/"dis-"/"de-" verbs not listed are their base's opposite (`actionOf`). */
const FAMILIES: Record<string, readonly string[]> = {
  create: [
    'create',
    'add',
    'make',
    'open',
    'register',
    'insert',
    'submit',
    'enrol',
    'enroll',
    'provision',
    'generate',
    'issue',
    'raise',
    'save',
    'put',
    'sign',
    'onboard',
    'book',
    'place',
    'log',
    'record',
    'build',
    'compose',
    'write',
    'post',
  ],
  // Reading, listing and searching are one read: which of them answers is the object's business.
  read: [
    'get',
    'fetch',
    'retrieve',
    'read',
    'show',
    'view',
    'see',
    'display',
    'describe',
    'inspect',
    'check',
    'give',
    'tell',
    'know',
    'what',
    'which',
    'who',
    'list',
    'browse',
    'enumerate',
    'search',
    'find',
    'lookup',
    'look',
    'query',
    'discover',
    'locate',
  ],
  update: [
    'update',
    'edit',
    'change',
    'modify',
    'set',
    'patch',
    'rename',
    'replace',
    'fix',
    'correct',
    'adjust',
    'amend',
    'alter',
    'configure',
    'reschedule',
    'reassign',
    'upgrade',
  ],
  delete: ['delete', 'remove', 'destroy', 'erase', 'wipe', 'purge', 'drop', 'clear', 'discard', 'deregister', 'unregister', 'forget', 'trash'],
  cancel: ['cancel', 'void', 'abort', 'terminate', 'withdraw', 'rescind', 'revert', 'undo', 'rollback'],
  close: ['close', 'resolve', 'finish', 'complete'],
  enable: ['enable', 'activate', 'turn', 'switch'],
  disable: ['disable', 'deactivate', 'suspend'],
  grant: ['grant', 'allow', 'permit', 'authorize', 'authorise', 'share'],
  revoke: ['revoke', 'deny', 'forbid'],
  subscribe: ['subscribe', 'listen', 'watch', 'stream', 'receive', 'consume', 'react'],
  unsubscribe: ['unsubscribe', 'unwatch', 'mute'],
  follow: ['follow'],
  start: ['start', 'begin', 'launch', 'run', 'trigger', 'execute', 'invoke', 'kick', 'play', 'spin', 'boot', 'deploy'],
  stop: ['stop', 'halt', 'kill', 'end', 'shut', 'shutdown'],
  pause: ['pause', 'freeze', 'hold'],
  resume: ['resume', 'unpause', 'continue', 'restart', 'reopen', 'restore', 'unfreeze'],
  lock: ['lock', 'block', 'ban'],
  approve: ['approve', 'accept', 'confirm', 'verify', 'validate', 'acknowledge', 'ack'],
  reject: ['reject', 'decline', 'refuse', 'dismiss', 'nack'],
  archive: ['archive'],
  publish: ['publish', 'release', 'announce'],
  attach: ['attach', 'apply', 'link', 'assign', 'bind', 'connect', 'join', 'install', 'mount'],
  detach: ['detach', 'unlink', 'unassign', 'unbind', 'disconnect', 'leave', 'uninstall', 'unmount'],
  upload: ['upload', 'import', 'ingest'],
  download: ['download', 'export'],
  send: ['send', 'email', 'text', 'message', 'notify', 'deliver', 'dispatch', 'push', 'broadcast', 'reply', 'forward', 'invite', 'ping', 'alert', 'command'],
  pay: ['pay', 'charge', 'bill', 'capture', 'collect'],
  refund: ['refund', 'reimburse', 'chargeback'],
  transfer: ['transfer', 'move', 'migrate', 'copy', 'clone', 'duplicate'],
  reserve: ['reserve', 'allocate', 'hold'],
  schedule: ['schedule', 'plan', 'queue', 'enqueue', 'delay', 'defer', 'postpone', 'snooze', 'repeat'],
  retry: ['retry', 'redeliver', 'replay', 'resend', 'rerun'],
  escalate: ['escalate'],
  calculate: [
    'calculate',
    'compute',
    'estimate',
    'quote',
    'compare',
    'count',
    'measure',
    'evaluate',
    'score',
    'rate',
    'rank',
    'predict',
    'analyze',
    'analyse',
    'summarize',
    'summarise',
  ],
  convert: ['convert', 'translate', 'transcode', 'transform', 'format', 'render', 'resize', 'encode', 'decode', 'parse'],
  track: ['track', 'trace', 'monitor'],
  like: ['like', 'favorite', 'favourite', 'star', 'bookmark', 'upvote', 'vote'],
};

/** Families whose verbs undo each other's. */
const OPPOSITES: [string, string][] = [
  ['create', 'delete'],
  ['create', 'cancel'],
  ['create', 'close'],
  ['enable', 'disable'],
  ['grant', 'revoke'],
  ['subscribe', 'unsubscribe'],
  ['start', 'stop'],
  ['pause', 'resume'],
  ['start', 'pause'],
  ['upload', 'download'],
  ['attach', 'detach'],
  ['approve', 'reject'],
  ['pay', 'refund'],
];

/** Families close enough that one does not count against the other. */
const NEIGHBOURS: [string, string][] = [
  ['delete', 'cancel'],
  ['delete', 'close'],
  ['cancel', 'close'],
  ['create', 'update'],
  ['update', 'enable'],
  ['update', 'disable'],
  ['create', 'attach'],
  ['create', 'upload'],
  ['create', 'send'],
  ['create', 'schedule'],
  ['create', 'reserve'],
  ['start', 'schedule'],
  ['start', 'resume'],
  ['create', 'publish'],
  ['send', 'publish'],
  ['read', 'calculate'],
  ['read', 'track'],
  ['read', 'download'],
  ['stop', 'cancel'],
  ['stop', 'disable'],
  ['pause', 'disable'],
  ['pause', 'stop'],
  ['resume', 'enable'],
  ['delete', 'detach'],
  ['delete', 'revoke'],
  ['lock', 'disable'],
  ['like', 'create'],
];

/** Each verb's families: most have one, a few two ("hold" a job is pausing it, "hold" units is reserving them). */
const FAMILIES_OF_VERB = new Map<string, string[]>();
for (const [family, verbs] of Object.entries(FAMILIES)) for (const verb of verbs) FAMILIES_OF_VERB.set(verb, [...(FAMILIES_OF_VERB.get(verb) ?? []), family]);
const OPPOSITE = new Set(OPPOSITES.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
const NEIGHBOUR = new Set(NEIGHBOURS.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));

/**
 * A prefix that undoes a verb ("unfollow", "dequeue", "disconnect"), checked on the verb's base:
 * "de-" and "dis-" only before a longer one ("design" is no undone "sign", "disputes" no "put").
 */
const UNDOING_PREFIX = /^(?:un|dis|de)/;
const UNDONE_MIN_LETTERS: Record<string, number> = { un: 3, dis: 5, de: 5 };
/**
 * Families a prefix undoes: "unfollow", "unsubscribe", "deactivate". Not reading or judging:
 * "unread", "unlisted", "unverified" and "discount" are adjectives and nouns, not undoing.
 */
const UNDOABLE = new Set(['create', 'enable', 'attach', 'subscribe', 'follow', 'lock', 'publish', 'like', 'archive', 'schedule', 'grant', 'start', 'pause']);

/**
 * The family of one word used as a verb, in any inflection ("adds", "added", "adding",
 * "stopped"); an "un-", "dis-" or "de-" verb not listed is its base's opposite ("unfollow",
 * "dequeue"). Undefined for a word that is no known verb.
 */
export function actionOf(word: string, bare = false): string | undefined {
  return actionsOf(word, bare)[0];
}

/** Every family of a word used as a verb (`actionOf`), most likely first; with `bare`, only as written (a name's "issues" is no verb). */
export function actionsOf(word: string, bare = false): string[] {
  const lower = word.toLowerCase();
  for (const base of bare ? [lower] : lemmas(lower)) {
    const families = FAMILIES_OF_VERB.get(base);
    if (families) return families;
  }
  const prefix = UNDOING_PREFIX.exec(lower)?.[0];
  if (!prefix) return [];
  const undone = lower.slice(prefix.length);
  for (const base of bare ? [undone] : lemmas(undone)) {
    const families = FAMILIES_OF_VERB.get(base)?.filter((family) => UNDOABLE.has(family));
    if (families?.length && base.length >= UNDONE_MIN_LETTERS[prefix]) return families.map((family) => OPPOSITE_NAME[family] ?? `un${family}`);
  }
  return [];
}

/** The families an undoing prefix turns into one of the table's, rather than a new "un-" family. */
const OPPOSITE_NAME: Record<string, string> = {
  enable: 'disable',
  subscribe: 'unsubscribe',
  attach: 'detach',
  create: 'delete',
  grant: 'revoke',
  start: 'stop',
  pause: 'resume',
};

/** The word itself and what it is without a verb's inflection ("stopped" → stop, "creates" → create). */
function lemmas(word: string): string[] {
  const forms = [word];
  const strip = (suffix: string, add = '') => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) forms.push(word.slice(0, -suffix.length) + add);
  };
  strip('ies', 'y');
  strip('es');
  strip('s');
  strip('ied', 'y');
  strip('ed');
  strip('ed', 'e');
  strip('ing');
  strip('ing', 'e');
  for (const form of [...forms]) if (/([bdgklmnprt])\1$/.test(form)) forms.push(form.slice(0, -1));
  return forms;
}

/** How two actions relate: the same family, neighbours, opposites or different ones. */
export type ActionRelation = 'same' | 'neighbour' | 'opposite' | 'different';

export function relationOf(a: string, b: string): ActionRelation {
  if (a === b) return 'same';
  if (OPPOSITE.has(`${a}|${b}`) || a === `un${b}` || b === `un${a}`) return 'opposite';
  // "Remove following": undoing anything is a kind of removing.
  if (NEIGHBOUR.has(`${a}|${b}`) || (a === 'delete' && b.startsWith('un')) || (b === 'delete' && a.startsWith('un'))) return 'neighbour';
  return 'different';
}

/** Words of a name or a sentence: camelCase, snake_case, kebab-case, dots and slashes taken apart, lower case. */
export function splitWords(text: string): string[] {
  return text
    .slice(0, MAX_CHARS)
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS)
    .map((word) => word.toLowerCase());
}

/** Words after which a verb-looking word is a noun: "the tracks", "a write-off", "my playlist", "its status". */
const NOUN_BEFORE = new Set(
  'a an the my our your their its his her this that these those of some any each every no new first last latest next previous other another all both'.split(
    ' ',
  ),
);
/** Verbs that ask for facts only when said to the asker: "give me", "tell us" (not "give a customer their money back"). */
const TO_THE_ASKER = new Set(['give', 'tell', 'show']);
/** A clause these open says when or why, not what to do: "capture it later when the order ships". */
const SUBORDINATE = new Set('when whenever if once because until unless while whether after before since'.split(' '));
/** Verbs of a need looked at: the first few name what it asks. */
const MAX_NEED_ACTIONS = 3;

/** Words that carry no object: function words and the generic words of operation names. */
const NO_OBJECT = new Set([
  ...NOUN_BEFORE,
  ...'to for in on at by with from into onto and or but is are be do does did have has had we you they it them me us i can could will would should please'.split(
    ' ',
  ),
  ...'id ids api apis v1 v2 v3 request requests response details detail info information data item items object objects resource resources entity entities list all one many using via'.split(
    ' ',
  ),
]);

/**
 * Phrasal verbs as the one verb they mean, in any inflection of their first word: "get rid of" →
 * remove, "push back" → postpone. General English only.
 */
const PHRASAL_VERBS: [RegExp, string][] = [
  // First: "turn push notifications off" is turning off, not pushing off.
  [/\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+(?:\S+\s+){0,3}?on\b/g, 'enable'],
  [/\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+(?:\S+\s+){0,3}?off\b/g, 'disable'],
  // Signing in or out is no action of the table ("sign" would be creating).
  [/\b(?:log|logs|logged|logging|sign|signs|signed|signing)\s+(?:in|on|out|off)\b/g, 'authenticate'],
  // "Push the meeting to Thursday", "move it to next week": a new date, not pushing or moving
  // ("move an issue to another repository" moves).
  [
    /\b(?:push|pushes|pushed|pushing|move|moves|moved|moving|bump|bumps|bumped)\s+(?:\S+\s+){0,4}?to\s+(?:(?:next\s+)?(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|week|month)|tomorrow|later|a\s+later\s+(?:date|time|day))\b/g,
    'reschedule',
  ],
  [/\bg[eo]t(?:s|ting|ten)?\s+rid\s+of\b/g, 'remove'],
  [/\b(?:throw|throws|threw|thrown|throwing)\s+(?:\S+\s+){0,3}?(?:away|out)\b/g, 'discard'],
  [/\b(?:take|takes|took|taken|taking)\s+(?:\S+\s+){0,4}?(?:back\s+)?out\s+of\b/g, 'remove'],
  [/\b(?:take|takes|took|taken|taking)\s+(?:\S+\s+){0,3}?back\b/g, 'undo'],
  [/\b(?:push|pushes|pushed|pushing|put|puts|putting)\s+(?:\S+\s+){0,3}?(?:back|off)\b(?!\s+(?:to|into|in|on)\b)/g, 'postpone'],
  [/\b(?:set|sets|setting)\s+up\b/g, 'create'],
  [/\b(?:sign|signs|signed|signing)\s+up\b/g, 'register'],
  [/\b(?:look|looks|looked|looking)\s+up\b/g, 'lookup'],
  [/\b(?:hand|hands|handed|handing)\s+(?:\S+\s+){0,3}?over\b/g, 'transfer'],
  [/\b(?:kick|kicks|kicked|kicking)\s+off\b/g, 'start'],
  [/\b(?:shut|shuts|shutting)\s+down\b/g, 'stop'],
  [/\b(?:roll|rolls|rolled|rolling)\s+back\b/g, 'rollback'],
  [/\b(?:opt|opts|opted|opting)\s+out\b/g, 'unsubscribe'],
  [/\b(?:opt|opts|opted|opting)\s+in\b/g, 'subscribe'],
  [/\b(?:pay|pays|paid|paying|give|gives|gave|giving)\s+(?:\S+\s+){0,4}?(?:money\s+)?back\b/g, 'refund'],
  // "Not only … but also": no negation.
  [/\bnot\s+only\b/g, 'only'],
];

/** Words after which the next verb is what the need does *not* want: "without deleting it", "instead of archiving it". */
const NEGATIONS = new Set(['without', 'not', 'never', 'instead', 'rather', 'nor']);
/** Words between a negation and its verb: "without ever deleting", "instead of archiving", "rather than waiting". */
const NEGATION_GAP = new Set(['ever', 'of', 'than', 'to', 'be', 'being', 'been', 'even', 'just', 'accidentally', 'also']);
/** Words that start another clause: a when-clause ends there ("… when it ships, and refund it")… */
const CLAUSE_JOINS = new Set(['and', 'then', 'also', 'to']);
/** …and a negation ("find the orders not paid and cancel them"). */
const NEGATION_ENDS = new Set(['and', 'then', 'but', 'or']);
/** Characters of a need read: its action is said early. */
const MAX_NEED_CHARS = 400;

/**
 * Words a verb of the need follows: the need's start, "to", "and", a subject ("I", "we", "my
 * agent"), a modal ("can", "should"), an adverb ("temporarily stop"). After another content word
 * it is a noun of a compound: "the merge queue", "a firmware update", "the status change".
 */
const BEFORE_A_VERB = new Set(
  'to and then also or please i we you they he she it who that which can could should would will shall must may might want wants need needs let lets help me us just first not only agent agents assistant assistants bot bots chatbot app apps service services client clients system script team user users'.split(
    ' ',
  ),
);

function inVerbPosition(words: string[], index: number): boolean {
  const previous = words[index - 1];
  return previous === undefined || BEFORE_A_VERB.has(previous) || /ly$/.test(previous) || actionOf(previous) !== undefined || NEGATIONS.has(previous);
}

/** What a need asks to do, and the words it says it of. */
export interface NeedAction {
  /** Families of its main verbs, first first (none when it names no known action). */
  actions: string[];
  /** Families of the verbs it says not to do ("without deleting it"): an operation that does one counts as an opposite. */
  avoid?: string[];
  /** Its other words, each as `objectKey` reads it. */
  words: Set<string>;
}

export function needAction(need: string): NeedAction {
  const lower = need.slice(0, MAX_NEED_CHARS).toLowerCase().replace(/[’‘]/g, "'");
  const text = PHRASAL_VERBS.reduce((phrase, [pattern, verb]) => phrase.replace(pattern, verb), lower);
  const words = splitWords(text.replace(/'s\b/g, '').replace(/n't\b/g, ' not'));
  const actions: string[] = [];
  const avoid: string[] = [];
  let subordinate = false;
  let negated = false;
  words.forEach((word, index) => {
    if (SUBORDINATE.has(word) && !NOUN_BEFORE.has(words[index - 1] ?? '')) subordinate = true;
    if (CLAUSE_JOINS.has(word)) subordinate = false;
    if (NEGATION_ENDS.has(word)) negated = false;
    if (NEGATIONS.has(word)) return void (negated = true);
    const families = verbAt(words, index, negated);
    // A negation reaches its verb across function words only: "without ever deleting it".
    if (families.length === 0) {
      if (!NEGATION_GAP.has(word)) negated = false;
      return;
    }
    if (negated) avoid.push(...families);
    else if (!subordinate && actions.length < MAX_NEED_ACTIONS) actions.push(...families.filter((family) => !actions.includes(family)));
    negated = false;
  });
  return { actions, ...(avoid.length > 0 ? { avoid } : {}), words: new Set(words.filter((word) => !NO_OBJECT.has(word)).map(objectKey)) };
}

/**
 * The families of the need's word at `index` if it is a verb there: in a verb's place, and right
 * after another verb only as written ("delete messages" deletes; "messages" is no second verb).
 */
function verbAt(words: string[], index: number, negated: boolean): string[] {
  const [word, previous, next] = [words[index], words[index - 1], words[index + 1]];
  if (!negated && !inVerbPosition(words, index)) return [];
  if (TO_THE_ASKER.has(word) && !['me', 'us'].includes(next ?? '')) return [];
  const afterVerb = previous !== undefined && !BEFORE_A_VERB.has(previous) && actionOf(previous) !== undefined;
  return actionsOf(word, afterVerb);
}

/** A word as objects are compared: singular, without a verb's "-ing"/"-ed" ("payments" → payment, "scheduled" → schedul). */
export function objectKey(word: string): string {
  const singular = pluralize.singular(word.toLowerCase());
  return singular.length > 6 ? singular.replace(/(?:ing|ed|e)$/, '') : singular;
}

/** An operation as `operationAction` reads it. */
export interface ActionableOperation {
  method: string;
  path: string;
  summary: string | null;
  operationId?: string | null;
}

/** What an operation does and to what. */
export interface OperationAction {
  action?: string;
  /** Read from the operation's own name or summary, not guessed from its HTTP or AsyncAPI verb. */
  named: boolean;
  /** The object words of its name, as `objectKey` reads them. */
  objects: string[];
}

/** Verbs of kinds that carry a name: the RPC method, GraphQL field or MCP tool is the operation's name. */
const NAMED_KINDS = new Set(['RPC', 'QUERY', 'MUTATION', 'SUBSCRIPTION', 'TOOL']);

/** Whether the operation is an RPC method, GraphQL field, MCP tool or AsyncAPI channel: its name is its most precise text. */
export function isNamedKind(method: string): boolean {
  return NAMED_KINDS.has(method.toUpperCase()) || method.toUpperCase() in CHANNEL_ACTIONS;
}
/** AsyncAPI: what the caller does with the channel (see `EVENT_DELIVERY`): take events in, or send messages. */
const CHANNEL_ACTIONS: Record<string, string> = { SUBSCRIBE: 'subscribe', SEND: 'subscribe', PUBLISH: 'send', RECEIVE: 'send' };
/** REST methods' actions when neither summary nor operationId says. */
const HTTP_ACTIONS: Record<string, string> = { GET: 'read', POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
/** What a named kind does when its name has no verb ("products", "customer_history"). */
const KIND_ACTIONS: Record<string, string> = { QUERY: 'read', SUBSCRIPTION: 'subscribe' };

export function operationAction(operation: ActionableOperation): OperationAction {
  const method = operation.method.toUpperCase();
  if (NAMED_KINDS.has(method)) {
    const name = method === 'RPC' ? operation.path.slice(operation.path.lastIndexOf('/') + 1) : operation.path;
    // A GraphQL query reads whatever its name: `issues` is no verb.
    return method === 'QUERY' ? { ...fromName(splitWords(name), 'read'), action: 'read' } : fromName(splitWords(name), KIND_ACTIONS[method]);
  }
  if (method in CHANNEL_ACTIONS) return { action: CHANNEL_ACTIONS[method], named: false, objects: objects(splitWords(operation.path)) };
  // The operationId is the name its author gave it ("Unsubscribe", where the summary says "Deletes
  // a subscription"), after a namespace ("issues/list-for-repo"). An HTTP method word in it says
  // no more than the method: its verb is the next word ("GET_search-movie"), else the summary's.
  const id = splitWords((operation.operationId ?? '').split(/[/.]/).at(-1) ?? '');
  const named = id[0]?.toUpperCase() in HTTP_ACTIONS ? id.slice(1) : id;
  if (named.length > 0 && actionOf(named[0], true)) return fromName(named);
  // A summary says it in the third person: "Deletes a subscription".
  const summary = splitWords(operation.summary ?? '').slice(0, 8);
  if (summary.length > 0 && actionOf(summary[0])) return fromName(summary, undefined, false);
  // "POST /shipments/{id}/cancel", "/#Action=Unsubscribe": a verb as the path's last word.
  const last = splitWords(operation.path.split('/').at(-1) ?? '').at(-1);
  if (method !== 'GET' && last && actionOf(last, true)) return fromName([last]);
  const path = objects(splitWords(operation.path));
  return { action: HTTP_ACTIONS[method], named: false, objects: summary.length > 0 ? objects(summary) : path.slice(-2) };
}

/** A name's action is its first word, as written (a name's "issues" or "messages" is no verb). */
function fromName(words: string[], fallback?: string, bare = true): OperationAction {
  const action = words.length > 0 ? actionOf(words[0], bare) : undefined;
  return { action: action ?? fallback, named: action !== undefined, objects: objects(action ? words.slice(1) : words) };
}

function objects(words: string[]): string[] {
  return [...new Set(words.filter((word) => !NO_OBJECT.has(word) && !/^\d+$/.test(word)).map(objectKey))];
}

/** How much each relation of actions counts for (+) or against (−) an operation. */
const RELATION_FIT: Record<ActionRelation, number> = { same: 1, neighbour: 0.25, different: -0.5, opposite: -1 };
/** An action guessed from an HTTP or AsyncAPI verb counts for this share of a named one's. */
const GUESSED_ACTION_SHARE = 0.5;

/**
 * How well an operation does what the need asks, −1..1: the best relation between one of the
 * need's actions and the operation's (an opposite or different action counts against it, or one
 * the need says not to do); 0 when either says no action.
 */
export function actionFit(need: NeedAction, operation: OperationAction, within: 'card' | 'ranking' = 'card'): number {
  if (!operation.action) return 0;
  const share = operation.named ? 1 : GUESSED_ACTION_SHARE;
  if (need.avoid?.includes(operation.action)) return RELATION_FIT.opposite * share;
  if (need.actions.length === 0) return 0;
  const best = Math.max(...need.actions.map((action) => RELATION_FIT[relationOf(action, operation.action!)]));
  // Within a card, reading is a step of any task ("follow the artist of the song now playing"
  // reads the song first): never against. Ranking APIs, an API that only reads is no answer.
  return share * (within === 'card' && operation.action === 'read' ? Math.max(0, best) : best);
}

/** The share of the operation's object words the need says (0 when its name has none). */
export function objectFit(need: NeedAction, operation: OperationAction): number {
  if (operation.objects.length === 0) return 0;
  return operation.objects.filter((word) => need.words.has(word)).length / operation.objects.length;
}
