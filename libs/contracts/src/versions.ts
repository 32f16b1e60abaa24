import type { AffectedConsumer, ChangeImpact } from './consumers.js';
import type { VersionSource } from './sources.js';
import type { IndexingStatus } from './indexing-status.js';

/**
 * Where a version of an API stands. Search and agents are led to an API's recommended version
 * (`recommendedVersion`); a `retired` version is never searched, a `deprecated` one ranks below
 * an equally good API in production.
 */
export const LIFECYCLE_STAGES = ['design', 'development', 'testing', 'preview', 'production', 'deprecated', 'retired'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];
export const DEFAULT_LIFECYCLE: LifecycleStage = 'production';

/** A version as cards, records and `get_api` list it. */
export interface VersionSummary {
  version: string;
  lifecycle: LifecycleStage;
  /** `YYYY-MM-DD`, when the version is deprecated and its publisher named the day it goes. */
  sunsetDate?: string;
}

/** One version of an API (`GET /api-management/apis/:apiId/versions`). */
export interface ApiVersionRecord extends VersionSummary {
  apiId: string;
  /** The kind of API its spec is (`openapi`, `graphql`…). */
  kind: string;
  /** Increases with every new spec of this version (`PUT …/versions/:version`). */
  revision: number;
  /** The version routes without `?version=` act on, and the one search holds. */
  recommended: boolean;
  /** For a deprecated version: the version to move to (the recommended one), when there is another. */
  moveTo?: string;
  /** The file of a tree it is read from (`npm run import`). */
  source?: VersionSource;
  /** The index's status; only the recommended version is indexed for search. */
  indexing?: Omit<IndexingStatus, 'apiId'>;
  /** The current revision's lint findings by severity; absent until it has been linted. */
  lint?: LintSummary;
  createdAt: string;
  updatedAt: string;
  /** In a registration's answer: what the publisher should know, e.g. that the new spec breaks a version in production. */
  warnings?: string[];
  /** In a registration's answer: what changed from the spec it follows (the revision before, or the version in production). */
  changes?: ChangeCounts;
  /** In a registration's answer: the consumers of the version it follows that its breaking changes reach. */
  impact?: ChangeImpact;
  /** In a stage change's answer (deprecated, retired): the consumers of the version, to tell (they are sent `api.lifecycle.changed`). */
  consumersToTell?: AffectedConsumer[];
}

export interface ApiVersionList {
  items: ApiVersionRecord[];
}

/** The body of `POST /api-management/apis/:apiId/versions`. */
export interface ApiVersionRegistration {
  version: string;
  /** As for `POST /api-management/apis`: a document, or its text. */
  spec: string | Record<string, unknown>;
  format?: string;
  lifecycle?: LifecycleStage;
}

/** The body of `PATCH /api-management/apis/:apiId/versions/:version`. */
export interface ApiVersionPatch {
  lifecycle?: LifecycleStage;
  /** `YYYY-MM-DD`; only with (or on) a deprecated version; `null` clears it. */
  sunsetDate?: string | null;
  /** Retire a version that consumers use (without it: a 409 naming them). */
  force?: boolean;
}

export const CHANGE_SEVERITIES = ['breaking', 'non-breaking', 'info'] as const;
export type ChangeSeverity = (typeof CHANGE_SEVERITIES)[number];

/** One difference between two specs of an API, on the format-neutral operations every kind has. */
export interface ApiChange {
  severity: ChangeSeverity;
  /** A stable name of the rule: `operation-removed`, `required-input-added`, `response-field-removed`… */
  code: string;
  /** The operation it concerns, `METHOD address` as the endpoints list writes it (`GET /pets/{id}`); absent for the API as a whole. */
  operation?: string;
  /** Where in the operation: `input query.limit`, `request body .customer.email`, `response 200 .items[].id`. */
  location: string;
  message: string;
  /** On a breaking change, in a report with `impact`: the consumers (`consumerId`) that named its operation (the first `CONSUMER_LIMITS.listedPerChange`). */
  affectedConsumers?: string[];
  /** When `affectedConsumers` was cut: how many there are. */
  affectedConsumersTotal?: number;
}

/**
 * A part of two specs that a change report could not compare (a schema past the comparison's
 * budget, a union that changed, a nesting too deep): a change there is neither found nor ruled out.
 */
export interface ChangeGap {
  /** The operation, `METHOD address`; absent for the report as a whole. */
  operation?: string;
  /** Where in the operation, as `ApiChange.location` writes it. */
  location: string;
  reason: string;
}

/** How many changes of each severity a report found, and whether it compared everything. */
export interface ChangeCounts {
  breaking: number;
  nonBreaking: number;
  info: number;
  /**
   * Every part of both specs was compared. When false, the counts are of what could be compared
   * and a breaking change may hide in the rest: the report is not proof that nothing breaks, and
   * every gate (BREAKING_CHANGES_REFUSED_ORGS, the import CLI's --fail-on-breaking) treats it so.
   */
  complete: boolean;
}

/** What changed from one spec to another; breaking changes first. */
export interface ChangeReport extends ChangeCounts {
  changes: ApiChange[];
  /** The list was cut at `CHANGE_REPORT_LIMITS.maxChanges` (the counts are of every change found). */
  truncated?: boolean;
  /** When not complete: why, in a sentence: the first part not compared and its reason, and how many more there were. */
  incompleteReason?: string;
  /** When not complete: the parts not compared, the first `CHANGE_REPORT_LIMITS.maxGaps`. */
  notCompared?: ChangeGap[];
  /** The consumers of the `from` version its breaking changes reach (`ApiChange.affectedConsumers` names them per change). */
  impact?: ChangeImpact;
}

/** `GET /api-management/apis/:apiId/changes?from=&to=`: each side is a version and its revision. */
export interface ChangeReportResponse extends ChangeReport {
  apiId: string;
  from: { version: string; revision: number };
  to: { version: string; revision: number };
}

export const LINT_SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

export interface LintFinding {
  /** The rule: Spectral's (`operation-description`, `oas3-schema`…) or the format plugin's own. */
  code: string;
  severity: LintSeverity;
  message: string;
  /** Where in the document, as a JSON pointer-like path (`paths./pets.get.responses`) or the SDL/proto element (`type Query.field`). */
  path: string;
  /** The operation it concerns, `METHOD address` (`GET /pets/{id}`), when it concerns one. */
  operation?: string;
}

export type LintSummary = Record<LintSeverity, number>;

export interface LintReport {
  summary: LintSummary;
  findings: LintFinding[];
  /** The findings were cut at `LINT_LIMITS.maxFindings` (the summary counts every one). */
  truncated?: boolean;
}

/** `GET /api-management/apis/:apiId/versions/:version/lint`. */
export interface LintResponse extends LintReport {
  apiId: string;
  version: string;
  revision: number;
}

export const CHANGE_REPORT_LIMITS = {
  maxChanges: 2000,
  maxGaps: 100,
  /** `?from=` / `?to=`: a version's name (`REGISTRATION_LIMITS.versionMaxChars`) and `@revision`. */
  versionRefMaxChars: 120,
} as const;
export const LINT_LIMITS = { maxFindings: 2000 } as const;
