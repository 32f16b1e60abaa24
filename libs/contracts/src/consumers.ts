import type { LifecycleStage } from './versions.js';

/**
 * How the platform knows of a consumer: a team `declared` it, a Backstage `Component`'s
 * `consumesApis` in an imported tree names it (`catalog`, pruned with the tree), or a client
 * token called the API's operations over MCP (`observed`).
 */
export const CONSUMER_SOURCES = ['declared', 'catalog', 'observed'] as const;
export type ConsumerSource = (typeof CONSUMER_SOURCES)[number];

/** An operation a consumer calls, as the endpoints list writes it (`GET` and `/pets/{id}`). */
export interface ConsumedOperation {
  method: string;
  path: string;
}

/** The body of `POST /api-management/apis/:apiId/consumers`. */
export interface ConsumerDeclaration {
  /** The service or app that uses the API (`billing-service`). */
  name: string;
  teamName?: string;
  /** Whom to tell: an address, a channel, a URL. */
  contact?: string;
  /** The version it uses; absent: whichever is recommended. */
  version?: string;
  /** The operations it calls; absent or empty: any of them may be. */
  operations?: ConsumedOperation[];
}

/** A service or app that uses an API (`GET /api-management/apis/:apiId/consumers`). */
export interface ConsumerRecord {
  consumerId: string;
  apiId: string;
  orgId: string;
  name: string;
  teamName?: string;
  contact?: string;
  /** The version it uses; absent: whichever is recommended. */
  version?: string;
  operations: ConsumedOperation[];
  source: ConsumerSource;
  /** `catalog`: the Backstage entity (`component:default/billing`). */
  entityRef?: string;
  /** `declared`: the `sub` that declared it. */
  declaredBy?: string;
  /** `observed`: the last call seen; otherwise the last time it was declared or imported. */
  lastSeenAt: string;
  createdAt: string;
}

export interface ConsumerList {
  items: ConsumerRecord[];
}

/** One API version a consumer uses, in the org's dependency view. */
export interface ConsumedApi {
  consumerId: string;
  apiId: string;
  apiName: string;
  /** The version it uses (the recommended one when it named none). */
  version: string;
  /** It named no version: it follows the recommended one. */
  followsRecommended: boolean;
  lifecycle: LifecycleStage;
  sunsetDate?: string;
  operations: ConsumedOperation[];
  source: ConsumerSource;
  lastSeenAt: string;
}

/** A consumer (by name) and everything it uses (`GET /api-management/consumers?orgId=`). */
export interface ConsumerDependencies {
  name: string;
  teamNames: string[];
  contacts: string[];
  uses: ConsumedApi[];
}

export interface ConsumerDependencyView {
  orgId: string;
  items: ConsumerDependencies[];
  /** The view was cut at `CONSUMER_LIMITS.maxDependencyRows` uses. */
  truncated?: boolean;
}

/** `GET /api-management/consumers`: `stage` keeps the uses of versions in these stages (`deprecated`, `retired`: who still uses them). */
export interface ConsumerDependencyQuery {
  orgId: string;
  stage?: LifecycleStage[];
}

/**
 * A consumer a change affects or an event tells. In a report's impact, `certain`: a breaking change
 * is in an operation it named (or in the whole API); otherwise it named none, or the report did not
 * compare what it calls, so it may be affected. In a stage change's or deletion's list, `certain`:
 * it uses that version.
 */
export interface AffectedConsumer {
  consumerId: string;
  name: string;
  teamName?: string;
  contact?: string;
  source: ConsumerSource;
  certain: boolean;
}

/** The consumers of the compared version that the breaking changes of a report reach. */
export interface ChangeImpact {
  /** Consumers that call an operation a breaking change is in. */
  affected: AffectedConsumer[];
  /** Consumers that named no operation (any breaking change may reach them), or whose operations an incomplete report did not compare. */
  mayBeAffected: AffectedConsumer[];
  /** Consumers of the version whose named operations no breaking change touches. */
  unaffected: number;
}

export const CONSUMER_LIMITS = {
  nameMaxChars: 200,
  teamMaxChars: 200,
  contactMaxChars: 500,
  maxOperations: 500,
  /** A method: a verb, or a kind's own (`QUERY`, `RPC`, `TOOL`…). */
  methodMaxChars: 20,
  pathMaxChars: 2000,
  /** Consumers of one API: declared, catalog and observed together. */
  maxPerApi: 1000,
  /** Consumers a 409 or a warning names before "and N more". */
  named: 10,
  /** Consumers a breaking change of a report lists (`ApiChange.affectedConsumers`). */
  listedPerChange: 50,
  /** An observed client not seen for this long is told of a retirement or deletion but does not hold it up (409). */
  observedHoldsDays: 30,
  /** Uses in one dependency view. */
  maxDependencyRows: 5000,
} as const;
