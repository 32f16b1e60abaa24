/**
 * What people and agents pick after a search: a vote on a card ("This answered it" / "Not what I
 * need"), or a weaker implicit signal (an operation opened after the search). Later searches of
 * the org for the same need, or for it in other words, rank the chosen APIs higher (see
 * `FeedbackEvidence`).
 */
export const FEEDBACK_SIGNALS = ['vote', 'opened'] as const;
export type FeedbackSignal = (typeof FEEDBACK_SIGNALS)[number];

/** `POST /api-management/ai/feedback`: the operation's address, as long as an operation selector's `path`. */
export const FEEDBACK_LIMITS = { operationPathMaxChars: 2000 } as const;

/** `POST /api-management/ai/feedback` (reader). */
export interface FeedbackRequest {
  /** The `searchId` of the answer the caller acted on. */
  searchId: string;
  /** Any API of the search's org, also one the search did not return. */
  apiId: string;
  /** The operation that answered it (or did not), as the card lists it. */
  operation?: { method: string; path: string };
  helpful: boolean;
  /** `vote` (default): said so; `opened`: opened the API or an operation after the search, a weaker signal. */
  signal?: FeedbackSignal;
}

/** Internal: the gateway's feedback call to the AI app, with whom it is from. */
export interface InternalFeedbackRequest extends FeedbackRequest {
  /** The caller's identity (the token's `sub`); the AI app stores only a keyed hash of it. */
  person: string;
  /** The caller's orgs: the search must be of one of them. */
  orgIds: string[];
}

/**
 * A card's evidence from earlier searches of the org for the same need: signals given for a need
 * the search's model judges to be this query's (a paraphrase of it, as fitted per model; see
 * `FeedbackLearning`), never for merely related needs. Feedback reorders only among APIs the
 * content already finds relevant for the query.
 */
export interface FeedbackEvidence {
  /** People who voted that this API answered the need ("This answered it", MCP `rate_result`). */
  helpful: number;
  /** People who opened this API or one of its operations after such a search (in the web UI, or their assistant over MCP `get_api` / `get_operation`): a weaker, implicit signal, not a vote. */
  opened: number;
  /** People who said it was not what they needed. */
  notHelpful: number;
  /** How sure the model is that the closest of those needs is this query's, 0..1 (1: the same words). */
  similarity: number;
  /** What it did to the card's score: -1 (pushed down as far as feedback may) .. 1 (up as far as it may). */
  weight: number;
  /** Places the card moved because of feedback: 2 = up two places, -1 = down one, 0 = held where the content put it. */
  moved: number;
  /** Why, in a sentence a person or an agent can show as it is. */
  reason: string;
}

/** `GET /api-management/ai/admin/feedback?orgId=` (admin). */
export interface FeedbackReport {
  orgId: string;
  /** Stored signals (one per person, search, API and operation) and distinct people. */
  signals: number;
  people: number;
  /** Kept this many days (FEEDBACK_RETENTION_DAYS); a signal's weight halves every FEEDBACK_HALF_LIFE_DAYS. */
  retentionDays: number;
  halfLifeDays: number;
  /**
   * How search tells that a query expresses the need a signal was given for, with the model it
   * uses now: `paraphrases` (the same need in other words, by a threshold fitted for the model on
   * labelled pairs: `threshold`, the share of paraphrase pairs it matches, `recall`, and of pairs
   * of different needs, `falseMatchRate`) or `same need` only (the same words; `reason` says why).
   */
  learning: { model: string; matches: 'paraphrases' | 'same need'; threshold?: number; recall?: number; falseMatchRate?: number; reason?: string };
  /** Per API: people in favour and against (any need). */
  apis: { apiId: string; helpful: number; notHelpful: number }[];
  /** The newest signals (up to 200): the need as searched, never who gave it beyond a short keyed hash. */
  recent: {
    query: string;
    apiId: string;
    operation?: { method: string; path: string };
    helpful: boolean;
    signal: FeedbackSignal;
    person: string;
    at: string;
  }[];
}

/** `DELETE /api-management/ai/admin/feedback?orgId=[&apiId=]` (admin). */
export interface FeedbackErased {
  orgId: string;
  apiId?: string;
  /** Signals erased. */
  signals: number;
}
