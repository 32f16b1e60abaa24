import type { AffectedConsumer } from './consumers.js';
import type { ApiChange, ChangeCounts, LifecycleStage } from './versions.js';

/** What the platform tells webhooks and the notifications feed. */
export const EVENT_TYPES = [
  'api.created',
  'api.deleted',
  'api.version.created',
  'api.version.revised',
  'api.version.deleted',
  'api.breaking_change',
  'api.lifecycle.changed',
  'api.sunset.approaching',
  'api.indexing.failed',
  'api.import.failed',
  'api.consumer.added',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The API an event concerns, as it was when the event was written. */
export interface EventApi {
  apiId: string;
  name: string;
  teamName?: string;
}

/** What each event type carries beside its API. */
export interface EventData {
  'api.created': { version: string; lifecycle: LifecycleStage };
  /** `consumers`: those of any of its versions (named in the 409 that `force` overrode). */
  'api.deleted': { consumers: AffectedConsumer[]; consumersTotal: number };
  'api.version.created': { version: string; lifecycle: LifecycleStage };
  'api.version.revised': { version: string; revision: number };
  /** `consumers`: those of the version, which it no longer has (named in the 409 that `force` overrode). */
  'api.version.deleted': { version: string; consumers: AffectedConsumer[]; consumersTotal: number };
  /** The report of a new spec against the version it replaces or follows, its breaking changes (the first `NOTIFICATION_LIMITS.changesCarried`) and the consumers they reach. */
  'api.breaking_change': {
    version: string;
    /** The version compared with. */
    from: string;
    counts: ChangeCounts;
    changes: ApiChange[];
    affected: AffectedConsumer[];
    mayBeAffected: AffectedConsumer[];
  };
  /** `consumers`: the version's (the first `NOTIFICATION_LIMITS.consumersCarried`; `consumersTotal` counts them all). */
  'api.lifecycle.changed': {
    version: string;
    from: LifecycleStage;
    to: LifecycleStage;
    sunsetDate?: string;
    consumers: AffectedConsumer[];
    consumersTotal: number;
  };
  'api.sunset.approaching': { version: string; sunsetDate: string; daysLeft: number; consumers: AffectedConsumer[]; consumersTotal: number };
  'api.indexing.failed': { version: string; revision: number; error: string };
  /** A URL import's refresh, or a tree import's file, that could not be written. */
  'api.import.failed': { source: string; error: string };
  'api.consumer.added': { consumerId: string; name: string; teamName?: string; version?: string; source: string };
}

/**
 * One event, as a webhook receives it (the body, signed per Standard Webhooks) and as the
 * notifications feed lists it. `eventId` is the `webhook-id` of every delivery of it, retries included.
 */
export interface PlatformEvent<T extends EventType = EventType> {
  eventId: string;
  type: T;
  orgId: string;
  /** ISO time the change was made. */
  timestamp: string;
  api: EventApi;
  data: EventData[T];
}

/** The body of `POST /api-management/webhooks`. */
export interface WebhookRegistration {
  orgId: string;
  /** http(s); a private or loopback host only when WEBHOOK_ALLOWED_HOSTS lists its `host:port`. */
  url: string;
  /** The event types sent; absent: all. */
  events?: EventType[];
  /** Only these APIs' events; absent: every API of the org. */
  apiIds?: string[];
  /** Only events of APIs of these teams (any case); absent: every team. */
  teamNames?: string[];
  description?: string;
}

/** A webhook (`GET /api-management/webhooks?orgId=`). */
export interface WebhookRecord {
  webhookId: string;
  orgId: string;
  url: string;
  events: EventType[];
  apiIds: string[];
  teamNames: string[];
  description?: string;
  createdBy: string;
  createdAt: string;
  /** Set when it was disabled after `failuresToDisable` deliveries failed in a row; nothing is sent to it then. */
  disabledAt?: string;
  disabledReason?: string;
  /** Deliveries that failed in a row (every retry spent), since the last that succeeded. */
  consecutiveFailures: number;
}

/** `POST /api-management/webhooks`'s answer: the signing secret, shown this once. */
export interface WebhookCreated extends WebhookRecord {
  /** `whsec_` and base64: give it to a Standard Webhooks verifier. */
  secret: string;
}

export interface WebhookList {
  items: WebhookRecord[];
}

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One try of a delivery. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** The receiver's status; absent when it did not answer (refused, timed out). */
  statusCode?: number;
  durationMs: number;
  /** Why it failed, when it did. */
  error?: string;
}

/** One event sent to one webhook (`GET /api-management/webhooks/:webhookId/deliveries`), newest first. */
export interface WebhookDelivery {
  deliveryId: string;
  /** The `webhook-id` header, the same on every try. */
  eventId: string;
  type: EventType;
  apiId?: string;
  state: DeliveryState;
  createdAt: string;
  /** When the next try is due, while pending. */
  nextAttemptAt?: string;
  attempts: DeliveryAttempt[];
}

export interface WebhookDeliveryList {
  items: WebhookDelivery[];
}

/** `POST /api-management/webhooks/:webhookId/test`: one signed `webhook.test` sent now, and what the receiver answered. */
export interface WebhookTestResult {
  eventId: string;
  delivered: boolean;
  attempt: DeliveryAttempt;
}

/** The caller's notifications: events of the APIs they watch and of the APIs their consumers use. */
export interface NotificationFeed {
  items: (PlatformEvent & { reasons: ('watching' | 'consumer')[] })[];
  /** Pass as `before` for the next page. */
  nextBefore?: string;
}

export interface NotificationQuery {
  orgId?: string;
  /** An `eventId` of the page before: older events than it. */
  before?: string;
  limit?: number;
}

/** `GET|PUT|DELETE /api-management/apis/:apiId/watch`. */
export interface WatchState {
  apiId: string;
  watching: boolean;
}

export const NOTIFICATION_LIMITS = {
  urlMaxChars: 2000,
  descriptionMaxChars: 500,
  maxWebhooksPerOrg: 50,
  maxApiIds: 100,
  maxTeamNames: 50,
  /** Breaking changes an `api.breaking_change` event carries (its counts are of all). */
  changesCarried: 50,
  /** Consumers an event names. */
  consumersCarried: 100,
  deliveriesListed: 100,
  feedPageMax: 100,
  feedPageDefault: 30,
} as const;
