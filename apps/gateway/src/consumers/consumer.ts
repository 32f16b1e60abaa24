import type { ConsumedOperation, ConsumerSource } from '#contracts';

/** A service or app that uses an API: a row of `platform_backend.consumers` (migration ConsumersAndNotifications). */
export interface Consumer {
  id: string;
  orgId: string;
  apiId: string;
  name: string;
  teamName: string | null;
  contact: string | null;
  /** `null`: whichever version is recommended. */
  version: string | null;
  /** Empty: it named none, so any may be called. */
  operations: ConsumedOperation[];
  source: ConsumerSource;
  entityRef: string | null;
  /** A `catalog` consumer's tree: it goes when the tree no longer names it. */
  tree: string | null;
  /** A `catalog` consumer's descriptor file in its tree. */
  catalogPath: string | null;
  declaredBy: string | null;
  lastSeenAt: Date;
  createdAt: Date;
}
