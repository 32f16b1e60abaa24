import type { LifecycleStage } from './versions.js';

/**
 * The body of `PATCH /api-management/apis/:apiId` (publisher): an API's own details, and its
 * recommended version's stage, changed without sending its spec again. What is left out stays;
 * at least one field is needed. It makes no new revision of any version's spec; the API is indexed
 * again only when something search holds changed, and then only the chunks whose text changed
 * are embedded again (labels are in no chunk's text: a label change embeds nothing).
 */
export interface ApiDetailsPatch {
  /** A new name, stored trimmed: 409 when another API of the org has it (in any case). */
  name?: string;
  /** Stored trimmed; `null` or blank clears it. */
  teamName?: string | null;
  /** Stored trimmed; `null` or blank clears it. */
  description?: string | null;
  /** The API's labels, all of them (`LABEL_LIMITS`): they replace the ones it has; `{}` or `null` clears them. */
  labels?: Record<string, string> | null;
  /** The recommended version's stage, by the rules of `PATCH …/versions/:version` (leaving deprecation clears its sunset date). */
  lifecycle?: LifecycleStage;
  /** With `lifecycle: retired`: retire it although consumers use it (without: a 409 naming them). */
  force?: boolean;
}

/** The fields `ApiDetailsPatch` may carry. */
export const API_DETAILS_PATCH_FIELDS = ['name', 'teamName', 'description', 'labels', 'lifecycle'] as const satisfies readonly (keyof ApiDetailsPatch)[];
