import type { IndexingState, IndexingStatus, LifecycleStage, LintSummary } from '../../../libs/contracts/src/index.js';
import { LINT_SEVERITIES } from '../../../libs/contracts/src/versions.js';
import { ApiError } from './api-client.js';
import { formatDate, h } from './dom.js';
import { kindLabel } from './kinds.js';

/** An operation's verb in its kind's notation: `GET`, `PUBLISH`, `MUTATION`, `RPC`… each in its own colour. */
export function methodBadge(method: string): HTMLElement {
  return h('span', { class: `method method-${method.toLowerCase().replace(/[^a-z0-9-]/g, '')}` }, method);
}

/** `v2.0.0` for `2.0.0`; a version already written so (a .proto package's `v1`) is not made `vv1`. */
export function versionLabel(version: string): string {
  return /^v\d/i.test(version) ? version : `v${version}`;
}

/** Which kind of API: "OpenAPI", "AsyncAPI", "GraphQL", "gRPC", or an unknown kind's own name. */
export function kindBadge(kind: string): HTMLElement {
  return h(
    'span',
    { class: `kind kind-${kind.toLowerCase().replace(/[^a-z0-9-]/g, '')}`, 'data-kind': kind, title: `${kindLabel(kind)} API` },
    kindLabel(kind),
  );
}

/** A version's lifecycle stage, each stage in its own colour (`lifecycle-preview`, `lifecycle-deprecated`…). */
export function lifecycleBadge(stage: LifecycleStage): HTMLElement {
  return h('span', { class: `lifecycle lifecycle-${stage.replace(/[^a-z0-9-]/g, '')}`, 'data-lifecycle': stage }, stage);
}

/** "deprecated, sunset 2027-06-30; move to v2.0.0": what someone on a deprecated version must know. */
export function deprecationText(sunsetDate?: string, moveTo?: string): string {
  return [sunsetDate ? `sunset ${sunsetDate}` : '', moveTo ? `move to ${versionLabel(moveTo)}` : ''].filter(Boolean).join('; ');
}

const LINT_WORDS: Record<string, [string, string]> = {
  error: ['error', 'errors'],
  warning: ['warning', 'warnings'],
  info: ['info', 'info'],
  hint: ['hint', 'hints'],
};

/** "2 errors, 1 warning": a lint summary's non-zero counts, or "no findings". */
export function lintSummaryText(summary: LintSummary): string {
  const parts = LINT_SEVERITIES.filter((severity) => summary[severity] > 0).map(
    (severity) => `${summary[severity]} ${LINT_WORDS[severity][summary[severity] === 1 ? 0 : 1]}`,
  );
  return parts.length ? parts.join(', ') : 'no findings';
}

/** Lint counts as a small badge coloured by its worst severity (`lint-error`, `lint-warning`…, `lint-clean`). */
export function lintBadge(summary: LintSummary): HTMLElement {
  const worst = LINT_SEVERITIES.find((severity) => summary[severity] > 0);
  const text = lintSummaryText(summary);
  return h(
    'span',
    { class: `lint-badge lint-${worst ?? 'clean'}`, 'data-lint': worst ?? 'clean', title: `Lint: ${text}`, 'aria-label': `Lint: ${text}` },
    worst
      ? LINT_SEVERITIES.filter((severity) => summary[severity] > 0).map((severity) =>
          h('span', { class: `lint-count lint-count-${severity}` }, `${summary[severity]} ${LINT_WORDS[severity][summary[severity] === 1 ? 0 : 1]}`),
        )
      : 'lint clean',
  );
}

export function statusBadge(status: IndexingState | undefined): HTMLElement {
  const state = status ?? 'UNKNOWN';
  return h('span', { class: `status status-${state.toLowerCase()}`, 'data-status': state }, state === 'IN_PROGRESS' ? 'INDEXING' : state);
}

/** A status line: badge, and when it was indexed or why it failed. */
export function statusLine(status: Partial<IndexingStatus> | undefined): HTMLElement {
  return h(
    'div',
    { class: 'status-line' },
    statusBadge(status?.status),
    status?.status === 'COMPLETED' ? h('span', { class: 'muted' }, ` indexed ${formatDate(status.indexedAt)} · ${status.chunkCount ?? 0} chunks`) : null,
    status?.status === 'PENDING' ? h('span', { class: 'muted' }, ' waiting for a worker') : null,
    status?.status === 'IN_PROGRESS' ? h('span', { class: 'muted' }, ' parsing, chunking and embedding') : null,
    status?.status === 'FAILED' ? h('span', { class: 'error-text' }, ` ${status.error ?? 'Indexing failed'}`) : null,
    // Indexed in part (a limit was hit): say what was left out.
    status?.warnings?.length
      ? h(
          'ul',
          { class: 'notice status-warnings' },
          status.warnings.map((warning) => h('li', {}, warning)),
        )
      : null,
    status === undefined ? h('span', { class: 'muted' }, ' status unavailable (search service down?)') : null,
  );
}

/**
 * An error box that says what went wrong and what to do. `hints`: what to do for a status, where a
 * route means something of its own by it (an import's 504 is the spec's server being slow, not this one being busy).
 */
export function errorBox(error: unknown, what: string, hints: Partial<Record<number, string>> = {}): HTMLElement {
  const problem = error instanceof ApiError ? error.problem : undefined;
  const retryAfter = error instanceof ApiError ? error.retryAfterSeconds : undefined;
  const own = problem ? hints[problem.status] : undefined;
  // Busy (told when to come back, or timed out) is not down: the same request will do later.
  const busy = own === undefined && (retryAfter !== undefined || problem?.status === 504);
  const hint =
    own !== undefined
      ? own
      : problem?.status === 401
        ? 'Your sign-in is no longer valid: sign in again.'
        : problem?.status === 403
          ? 'Your token does not allow this (role or org).'
          : problem?.status === 429
            ? `Too many requests: try again in ${retryAfter ?? 'a few'} seconds.`
            : busy
              ? `The service is busy: try again in ${retryAfter ?? 'a few'} second${retryAfter === 1 ? '' : 's'}.`
              : problem?.status === 503
                ? 'A service behind the gateway is down; retry shortly.'
                : problem?.status === 0
                  ? 'Check that the server is running.'
                  : undefined;
  return h(
    'div',
    { class: busy ? 'error-box busy' : 'error-box', role: 'alert', 'data-busy': busy ? 'true' : undefined },
    h('strong', {}, busy ? `${what}: busy, try again. ` : `${what}: `),
    problem?.detail ?? (error as Error)?.message ?? String(error),
    problem?.errors && problem.errors.length > 1
      ? h(
          'ul',
          {},
          problem.errors.map((line) => h('li', {}, line)),
        )
      : null,
    hint ? h('div', { class: 'hint' }, hint) : null,
  );
}

/**
 * Polls until the API's indexing ends (COMPLETED or FAILED), calling back on each change.
 * Returns a function that stops it (when the view is left).
 */
export function watchStatus(load: () => Promise<IndexingStatus>, onStatus: (status: IndexingStatus | undefined) => void, intervalMs = 1000): () => void {
  let stopped = false;
  let timer: number | undefined;
  const tick = async () => {
    let status: IndexingStatus | undefined;
    try {
      status = await load();
    } catch {
      status = undefined;
    }
    if (stopped) return;
    onStatus(status);
    if (status?.status !== 'COMPLETED' && status?.status !== 'FAILED') timer = window.setTimeout(tick, intervalMs);
  };
  void tick();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
