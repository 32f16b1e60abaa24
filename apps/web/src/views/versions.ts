import type {
  AffectedConsumer,
  ApiVersionRecord,
  ConsumerRecord,
  LifecycleStage,
  LintFinding,
  LintResponse,
  LintSummary,
} from '../../../../libs/contracts/src/index.js';
import { LIFECYCLE_STAGES, LINT_SEVERITIES } from '../../../../libs/contracts/src/versions.js';
import { ragApiClient } from '../api-client.js';
import { deprecationText, errorBox, lifecycleBadge, lintBadge, versionLabel } from '../components.js';
import { consumerList, consumersCount, usesVersion, withForceConfirm } from '../consumer-parts.js';
import { h, handler, replace } from '../dom.js';

/** An API's page at one of its versions: #/apis/:id?version=2.0.0 (the recommended one without it). */
export function versionHash(apiId: string, version: string, recommended: string): string {
  return version === recommended ? `#/apis/${apiId}` : `#/apis/${apiId}?${new URLSearchParams({ version })}`;
}

/** "What changed" between two versions: #/apis/:id/changes?from=&to= (the view's defaults when absent). */
export function changesHash(apiId: string, from?: string, to?: string): string {
  const params = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();
  return `#/apis/${apiId}/changes${params ? `?${params}` : ''}`;
}

/**
 * Every version of the API, newest release first: its stage, the recommended one marked (search
 * and agents use it), a deprecated one's sunset date and the version to move to, its lint summary.
 * Each a link that shows the page at that version.
 */
export function versionsSection(apiId: string, versions: ApiVersionRecord[], viewed: string, recommended: string): HTMLElement {
  const index = (version: string) => versions.findIndex((item) => item.version === version);
  // The version viewed against the recommended one, older first; the recommended one against the one before it.
  const [older, newer] = index(viewed) > index(recommended) ? [viewed, recommended] : [recommended, viewed];
  const compare =
    versions.length > 1
      ? h(
          'a',
          { id: 'compare-versions', class: 'button', href: viewed === recommended ? changesHash(apiId) : changesHash(apiId, older, newer) },
          'What changed',
        )
      : null;
  return h(
    'section',
    { id: 'versions', class: 'versions', 'aria-labelledby': 'versions-heading' },
    h('div', { class: 'section-head' }, h('h2', { id: 'versions-heading' }, `Versions (${versions.length})`), compare),
    h(
      'ul',
      { class: 'version-list' },
      versions.map((item) => {
        const current = item.version === viewed;
        return h(
          'li',
          { class: current ? 'version-item current' : 'version-item', 'data-version': item.version, 'data-lifecycle': item.lifecycle },
          h(
            'a',
            { class: 'version-link', href: versionHash(apiId, item.version, recommended), 'aria-current': current ? 'page' : undefined },
            versionLabel(item.version),
          ),
          lifecycleBadge(item.lifecycle),
          item.recommended ? h('span', { class: 'recommended', title: 'Search and agents use this version' }, 'recommended') : null,
          item.lifecycle === 'deprecated' && (item.sunsetDate || item.moveTo)
            ? h('span', { class: 'deprecation' }, deprecationText(item.sunsetDate, item.moveTo))
            : null,
          item.lint ? lintBadge(item.lint) : h('span', { class: 'muted lint-none' }, 'not linted yet'),
          h('span', { class: 'muted spec-revision', title: `Goes up with every new spec of ${versionLabel(item.version)}` }, `spec revision ${item.revision}`),
        );
      }),
    ),
  );
}

/** A banner at the top of a deprecated (or retired) version's page: when it goes, and where to go. */
export function lifecycleBanner(apiId: string, version: ApiVersionRecord | undefined, recommended: string): HTMLElement | null {
  if (!version || (version.lifecycle !== 'deprecated' && version.lifecycle !== 'retired')) return null;
  const label = versionLabel(version.version);
  return h(
    'div',
    { id: 'deprecated-banner', class: `notice lifecycle-banner banner-${version.lifecycle}`, role: 'status' },
    h('strong', {}, version.lifecycle === 'deprecated' ? 'Deprecated. ' : 'Retired. '),
    version.lifecycle === 'deprecated'
      ? `Version ${label} is deprecated${version.sunsetDate ? ` and goes on ${version.sunsetDate}` : ''}.`
      : `Version ${label} is retired: search and agents no longer offer it.`,
    version.moveTo ? [' Move to ', h('a', { href: versionHash(apiId, version.moveTo, recommended) }, versionLabel(version.moveTo)), '.'] : null,
  );
}

function summaryOf(findings: LintFinding[]): LintSummary {
  const summary = Object.fromEntries(LINT_SEVERITIES.map((severity) => [severity, 0])) as LintSummary;
  for (const finding of findings) summary[finding.severity] += 1;
  return summary;
}

function findingList(findings: LintFinding[]): HTMLElement {
  const order = (finding: LintFinding) => LINT_SEVERITIES.indexOf(finding.severity);
  return h(
    'ul',
    { class: 'lint-findings' },
    [...findings]
      .sort((a, b) => order(a) - order(b))
      .map((finding) =>
        h(
          'li',
          { class: `lint-finding lint-finding-${finding.severity}`, 'data-severity': finding.severity },
          h('span', { class: `lint-severity lint-severity-${finding.severity}` }, finding.severity),
          h('span', { class: 'lint-message' }, finding.message),
          h('code', { class: 'lint-code muted' }, finding.code),
          finding.path ? h('code', { class: 'lint-path muted' }, finding.path) : null,
        ),
      ),
  );
}

/**
 * A version's lint report on its page: each operation row (`details[data-operation]` under
 * `operations`) gets a badge with its counts and, inside, its findings; the findings that concern
 * no operation listed go in a general section, drawn into `into`.
 */
export function showLint(into: HTMLElement, operations: HTMLElement, report: LintResponse): void {
  const byOperation = new Map<string, LintFinding[]>();
  for (const finding of report.findings) {
    if (finding.operation) byOperation.set(finding.operation, [...(byOperation.get(finding.operation) ?? []), finding]);
  }
  const shown = new Set<string>();
  for (const row of operations.querySelectorAll<HTMLDetailsElement>('details.operation')) {
    const name = row.dataset.operation ?? '';
    const findings = byOperation.get(name);
    row.querySelectorAll('.lint-badge, .lint-findings').forEach((old) => old.remove());
    if (!findings) continue;
    shown.add(name);
    row.querySelector('summary')?.append(lintBadge(summaryOf(findings)));
    row.querySelector('summary')?.after(findingList(findings));
  }
  const general = report.findings.filter((finding) => !finding.operation || !shown.has(finding.operation));
  replace(
    into,
    h('div', { class: 'section-head' }, h('h2', { id: 'lint-heading' }, 'Lint'), lintBadge(report.summary)),
    h('p', { class: 'muted' }, `Revision ${report.revision} of ${versionLabel(report.version)}; each operation's findings show when it is opened.`),
    report.truncated ? h('p', { class: 'notice' }, `Only the first ${report.findings.length} findings are listed; the counts are of every one.`) : null,
    general.length
      ? h(
          'details',
          { id: 'lint-general', class: 'lint-general' },
          h('summary', {}, `General findings (${general.length})`, ' ', lintBadge(summaryOf(general))),
          findingList(general),
        )
      : null,
  );
}

/** Lint that could not be had: said, not in the way of the rest of the page. */
export function lintUnavailable(into: HTMLElement, error: unknown): void {
  replace(into, h('h2', { id: 'lint-heading' }, 'Lint'), errorBox(error, 'Lint findings are unavailable'));
}

/** The consumers told of the last stage change saved, shown once on the page drawn after it. */
let told: { apiId: string; version: string; lifecycle: LifecycleStage; consumers: AffectedConsumer[] } | undefined;

/** After a version was deprecated or retired: the consumers the server tells of it (`consumersToTell`), once. */
export function toldNotice(apiId: string, version: string): HTMLElement | null {
  const saved = told;
  if (!saved || saved.apiId !== apiId || saved.version !== version) return null;
  told = undefined;
  return h(
    'div',
    { id: 'consumers-told', class: 'notice', role: 'status' },
    h('strong', {}, `${versionLabel(version)} is ${saved.lifecycle}. `),
    saved.consumers.length
      ? [`${consumersCount(saved.consumers.length)} told of it:`, consumerList(saved.consumers, 'told-list')]
      : 'No consumer of it is known: nobody was told.',
  );
}

/** Who would be told of a stage change: the consumers of that version, from the API's list. */
function whoIsTold(version: ApiVersionRecord, consumers: ConsumerRecord[] | Error): (HTMLElement | string)[] {
  if (consumers instanceof Error) return [errorBox(consumers, 'Who uses this version could not be read')];
  const using = consumers.filter((consumer) => usesVersion(consumer, version));
  return using.length
    ? [`Saving tells ${consumersCount(using.length)} of ${versionLabel(version.version)}:`, consumerList(using, 'to-tell')]
    : [`No consumer of ${versionLabel(version.version)} is known: nobody is told.`];
}

/**
 * A publisher's form for a version's stage and, when deprecated, its sunset date
 * (`PATCH …/versions/:version`), and a button that deletes the version. Choosing deprecated or
 * retired says which consumers are told; retiring or deleting a version consumers use asks first
 * (the server's 409 names them) and then goes ahead with `force`. `onSaved` redraws the page,
 * `onDeleted` leaves it.
 */
export function stageForm(
  token: string,
  apiId: string,
  version: ApiVersionRecord,
  onSaved: () => void,
  consumers: Promise<ConsumerRecord[] | Error> = Promise.resolve([]),
  onDeleted: () => void = onSaved,
): HTMLElement {
  const message = h('div', { class: 'stage-message', 'aria-live': 'polite' });
  const sunset = h('input', {
    id: 'stage-sunset',
    type: 'date',
    name: 'sunsetDate',
    value: version.sunsetDate ?? '',
    disabled: version.lifecycle !== 'deprecated',
  });
  // Leaving deprecation (retiring included) clears the date on the server: said before it is saved.
  const cleared = h(
    'p',
    { id: 'stage-sunset-cleared', class: 'muted stage-note', hidden: true },
    `Only a deprecated version has a sunset date: saving clears ${version.sunsetDate ?? ''}.`,
  );
  const tellNote = h('div', { id: 'stage-told', class: 'muted stage-note', hidden: true, 'aria-live': 'polite' });
  const showTold = handler(async () => {
    const ending = (select.value === 'deprecated' || select.value === 'retired') && select.value !== version.lifecycle;
    tellNote.hidden = !ending;
    if (ending) replace(tellNote, whoIsTold(version, await consumers));
  });
  const select = h(
    'select',
    {
      id: 'stage-lifecycle',
      name: 'lifecycle',
      onchange: (event: Event) => {
        sunset.disabled = select.value !== 'deprecated';
        cleared.hidden = !version.sunsetDate || select.value === 'deprecated';
        showTold(event);
      },
    },
    LIFECYCLE_STAGES.map((stage) => h('option', { value: stage, selected: stage === version.lifecycle }, stage)),
  );
  const save = h('button', { type: 'submit', class: 'small' }, 'Save stage');
  const remove = h(
    'button',
    {
      type: 'button',
      class: 'small danger',
      id: 'delete-version',
      onclick: handler(async () => {
        if (!window.confirm(`Delete version ${versionLabel(version.version)}? Its specs and history go.`)) return;
        await withForceConfirm(message, 'Version not deleted', `Delete ${versionLabel(version.version)} anyway`, async (force) => {
          await ragApiClient.deleteVersion(token, apiId, version.version, force);
          onDeleted();
        });
      }),
    },
    `Delete ${versionLabel(version.version)}`,
  );
  return h(
    'form',
    {
      id: 'stage-form',
      class: 'filters stage-form',
      'aria-label': `Stage of ${versionLabel(version.version)}`,
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        const lifecycle = select.value as LifecycleStage;
        save.disabled = true;
        replace(message);
        await withForceConfirm(message, 'Stage not changed', `Retire ${versionLabel(version.version)} anyway`, async (force) => {
          const saved = await ragApiClient.patchVersion(token, apiId, version.version, {
            ...(lifecycle !== version.lifecycle ? { lifecycle } : {}),
            // Only a deprecated version has one; emptied, it is cleared.
            ...(lifecycle === 'deprecated' ? { sunsetDate: sunset.value || null } : {}),
            ...(force ? { force: true } : {}),
          });
          if (saved.consumersToTell) told = { apiId, version: version.version, lifecycle: saved.lifecycle, consumers: saved.consumersToTell };
          onSaved();
        });
        save.disabled = false;
      }),
    },
    h('label', {}, `Stage of ${versionLabel(version.version)} `, select),
    h('label', {}, 'Sunset ', sunset),
    save,
    remove,
    cleared,
    tellNote,
    message,
  );
}
