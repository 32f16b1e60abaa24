import type { ApiVersionRecord, LifecycleStage, LintFinding, LintResponse, LintSummary } from '../../../../libs/contracts/src/index.js';
import { LIFECYCLE_STAGES, LINT_SEVERITIES } from '../../../../libs/contracts/src/versions.js';
import { ragApiClient } from '../api-client.js';
import { deprecationText, errorBox, lifecycleBadge, lintBadge, versionLabel } from '../components.js';
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

/**
 * A publisher's form for a version's stage and, when deprecated, its sunset date
 * (`PATCH …/versions/:version`); `onSaved` redraws the page.
 */
export function stageForm(token: string, apiId: string, version: ApiVersionRecord, onSaved: () => void): HTMLElement {
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
  const select = h(
    'select',
    {
      id: 'stage-lifecycle',
      name: 'lifecycle',
      onchange: () => {
        sunset.disabled = select.value !== 'deprecated';
        cleared.hidden = !version.sunsetDate || select.value === 'deprecated';
      },
    },
    LIFECYCLE_STAGES.map((stage) => h('option', { value: stage, selected: stage === version.lifecycle }, stage)),
  );
  const save = h('button', { type: 'submit', class: 'small' }, 'Save stage');
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
        try {
          await ragApiClient.patchVersion(token, apiId, version.version, {
            ...(lifecycle !== version.lifecycle ? { lifecycle } : {}),
            // Only a deprecated version has one; emptied, it is cleared.
            ...(lifecycle === 'deprecated' ? { sunsetDate: sunset.value || null } : {}),
          });
          onSaved();
        } catch (error) {
          replace(message, errorBox(error, 'Stage not changed'));
        } finally {
          save.disabled = false;
        }
      }),
    },
    h('label', {}, `Stage of ${versionLabel(version.version)} `, select),
    h('label', {}, 'Sunset ', sunset),
    save,
    cleared,
    message,
  );
}
