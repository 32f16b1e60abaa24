import type {
  ApiChange,
  ApiRecord,
  ApiVersionRecord,
  ChangeCounts,
  ChangeImpact,
  ChangeReportResponse,
  ChangeSeverity,
} from '../../../../libs/contracts/src/index.js';
import { CHANGE_SEVERITIES } from '../../../../libs/contracts/src/versions.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, versionLabel } from '../components.js';
import type { ViewContext } from '../context.js';
import { consumerList, consumersCount } from '../consumer-parts.js';
import { h, replace } from '../dom.js';
import { changesHash, versionHash } from './versions.js';

const SEVERITY_TITLES: Record<ChangeSeverity, string> = { breaking: 'Breaking', 'non-breaking': 'Non-breaking', info: 'Info' };

/**
 * What changed between two versions of an API (#/apis/:id/changes?from=&to=): breaking changes
 * first, a group a severity with its count.
 */
export async function changesView(ctx: ViewContext, apiId: string): Promise<void> {
  const { session } = ctx;
  replace(ctx.main, h('p', { class: 'loading' }, 'Loading…'));
  let api: ApiRecord;
  let versions: ApiVersionRecord[];
  try {
    [api, { items: versions }] = await Promise.all([ragApiClient.getApi(session.token, apiId), ragApiClient.listVersions(session.token, apiId)]);
  } catch (error) {
    replace(ctx.main, errorBox(error, 'Could not load this API'), h('p', {}, h('a', { href: '#/catalogue' }, '← Catalogue')));
    return;
  }
  const back = h('p', {}, h('a', { href: `#/apis/${apiId}` }, `← ${api.name}`));
  const title = h('h1', {}, `What changed in ${api.name}`);
  if (versions.length < 2) {
    replace(ctx.main, back, title, h('p', { class: 'empty' }, `${api.name} has one version: there is nothing to compare it with yet.`));
    return;
  }
  const { from, to } = comparedVersions(versions, ctx.params);
  const results = h('section', { id: 'changes', 'aria-live': 'polite' }, h('p', { class: 'loading' }, 'Comparing…'));
  replace(ctx.main, back, title, versionsForm(ctx, apiId, versions, from, to), results);

  if (from === to) {
    replace(results, h('p', { class: 'empty' }, 'Choose two different versions to compare.'));
    return;
  }
  let report: ChangeReportResponse;
  try {
    report = await ragApiClient.getChanges(session.token, apiId, from, to);
  } catch (error) {
    replace(results, errorBox(error, 'Could not compare these versions'));
    return;
  }
  replace(results, ...changeReport(report, apiId, api.version));
}

/**
 * The versions to compare: the URL's, else the version before the recommended one to the
 * recommended one (or, when it is the oldest, the recommended one to the next).
 */
function comparedVersions(versions: ApiVersionRecord[], params: URLSearchParams): { from: string; to: string } {
  const recommended = versions.findIndex((item) => item.recommended);
  const at = recommended >= 0 ? recommended : 0;
  const [defaultFrom, defaultTo] = at + 1 < versions.length ? [versions[at + 1], versions[at]] : [versions[at], versions[at - 1]];
  const to = params.get('to') || defaultTo.version;
  const from = params.get('from') || (to === defaultFrom.version ? defaultTo.version : defaultFrom.version);
  return { from, to };
}

/** The two version selects and the swap button; choosing a version, or swapping them, compares again. */
function versionsForm(ctx: ViewContext, apiId: string, versions: ApiVersionRecord[], from: string, to: string): HTMLFormElement {
  const choice = (id: string, label: string, chosen: string) => {
    // A `version@revision` from a link is kept as an option, so the select shows what is compared.
    const names = versions.some((item) => item.version === chosen) ? versions.map((item) => item.version) : [chosen, ...versions.map((item) => item.version)];
    const select = h(
      'select',
      { id, name: id, onchange: () => submit() },
      names.map((name) => {
        const item = versions.find((version) => version.version === name);
        return h(
          'option',
          { value: name, selected: name === chosen },
          item ? `${versionLabel(name)} (${item.lifecycle}${item.recommended ? ', recommended' : ''})` : name,
        );
      }),
    );
    return { select, field: h('label', {}, `${label} `, select) };
  };
  const fromChoice = choice('changes-from', 'From', from);
  const toChoice = choice('changes-to', 'To', to);
  const submit = () => ctx.navigate(changesHash(apiId, fromChoice.select.value, toChoice.select.value));
  return h(
    'form',
    {
      class: 'filters changes-form',
      'aria-label': 'Versions to compare',
      onsubmit: (event: Event) => {
        event.preventDefault();
        submit();
      },
    },
    fromChoice.field,
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        id: 'swap-versions',
        'aria-label': 'Swap the versions',
        title: 'Swap',
        onclick: () => ctx.navigate(changesHash(apiId, to, from)),
      },
      '⇄',
    ),
    toChoice.field,
  );
}

/** The report: its counts, whether it is complete, and the changes a group a severity, breaking first. */
function changeReport(report: ChangeReportResponse, apiId: string, apiVersion: string): (HTMLElement | null)[] {
  const counts: Record<ChangeSeverity, number> = { breaking: report.breaking, 'non-breaking': report.nonBreaking, info: report.info };
  return [
    changesSummary(report, counts, apiId, apiVersion),
    report.impact ? impactSummary(report.impact, report.from.version) : null,
    report.complete ? null : incompleteNotice(report),
    report.truncated ? h('p', { class: 'notice' }, `Only the first ${report.changes.length} changes are listed; the counts are of every one.`) : null,
    report.changes.length === 0
      ? h(
          'p',
          { class: 'empty' },
          report.complete ? 'No differences in the operations, their inputs or their responses.' : 'No differences found in what could be compared.',
        )
      : null,
    ...CHANGE_SEVERITIES.map((severity) => {
      const changes = report.changes.filter((change) => change.severity === severity);
      return changes.length
        ? h(
            'section',
            { class: `change-group change-group-${severity}`, 'data-severity': severity, 'aria-labelledby': `changes-${severity}` },
            h('h2', { id: `changes-${severity}` }, `${SEVERITY_TITLES[severity]} changes (${counts[severity]})`),
            h(
              'ul',
              { class: 'changes' },
              changes.map((change) => changeItem(change, report.impact)),
            ),
          )
        : null;
    }),
  ];
}

/** "From v1 (revision 2) to v2 (revision 1): 1 breaking, …", each end a link to its version's page. */
function changesSummary(report: ChangeReportResponse, counts: Record<ChangeSeverity, number>, apiId: string, apiVersion: string): HTMLElement {
  const side = (end: { version: string; revision: number }) =>
    h('a', { href: versionHash(apiId, end.version, apiVersion) }, `${versionLabel(end.version)} (revision ${end.revision})`);
  return h(
    'p',
    { id: 'changes-summary', class: report.breaking ? 'changes-summary has-breaking' : 'changes-summary' },
    'From ',
    side(report.from),
    ' to ',
    side(report.to),
    ': ',
    CHANGE_SEVERITIES.flatMap((severity, index) => [
      index ? ', ' : '',
      h('strong', { class: `change-count change-count-${severity}`, 'data-severity': severity }, `${counts[severity]} ${severity}`),
    ]),
    '.',
  );
}

/** A breaking change may hide in what could not be compared: the page says so, and lists what was not. */
function incompleteNotice(report: ChangeReportResponse): HTMLElement {
  return h(
    'div',
    { id: 'changes-incomplete', class: 'notice', role: 'alert' },
    h('strong', {}, 'Not complete: '),
    'a breaking change may hide in what could not be compared. ',
    report.notCompared?.length
      ? h(
          'ul',
          {},
          report.notCompared.map((gap) =>
            h('li', {}, gap.operation ? h('code', {}, gap.operation) : null, ' ', h('code', { class: 'muted' }, gap.location), ': ', gap.reason),
          ),
        )
      : null,
  );
}

/** `2 breaking, 0 non-breaking, 1 info change.`, and that it is not complete when part could not be compared. */
export function changeCountsText({ breaking, nonBreaking, info, complete }: ChangeCounts): string {
  const counts = `${breaking} breaking, ${nonBreaking} non-breaking, ${info} info change${info === 1 ? '' : 's'}`;
  return complete ? `${counts}.` : `${counts} in what could be compared: not complete, so not proven safe.`;
}

/**
 * Who the breaking changes reach, of the consumers of the compared (`from`) version: those that
 * named an operation a breaking change is in, those that named none (they may be), the rest.
 */
function impactSummary(impact: ChangeImpact, from: string): HTMLElement {
  const { affected, mayBeAffected, unaffected } = impact;
  return h(
    'div',
    { id: 'impact-summary', class: affected.length || mayBeAffected.length ? 'impact-summary notice' : 'impact-summary' },
    h(
      'p',
      { class: 'impact-counts' },
      `Consumers of ${versionLabel(from)}: `,
      h('strong', { class: 'impact-affected' }, `${affected.length} affected`),
      ', ',
      h('strong', { class: 'impact-may' }, `${mayBeAffected.length} may be affected`),
      ', ',
      h('span', { class: 'impact-unaffected' }, `${unaffected} unaffected`),
      '.',
    ),
    mayBeAffected.length
      ? h(
          'details',
          { class: 'impact-may-list' },
          h('summary', {}, `${consumersCount(mayBeAffected.length)} named no operations and may be affected`),
          consumerList(mayBeAffected, 'may-be-affected'),
        )
      : null,
  );
}

/** A change; under a breaking one, the consumers that named its operation and how many may be affected. */
function changeItem(change: ApiChange, impact: ChangeImpact | undefined): HTMLElement {
  const named = change.severity === 'breaking' && impact ? impact.affected.filter((consumer) => change.affectedConsumers?.includes(consumer.consumerId)) : [];
  return h(
    'li',
    { class: `change change-${change.severity}`, 'data-severity': change.severity, 'data-code': change.code },
    h('span', { class: `severity severity-${change.severity}` }, change.severity),
    change.operation ? h('code', { class: 'change-operation' }, change.operation) : h('span', { class: 'muted' }, 'the API'),
    change.location ? h('code', { class: 'change-location muted' }, change.location) : null,
    h('span', { class: 'change-message' }, change.message),
    change.severity === 'breaking' && impact
      ? h(
          'div',
          { class: 'change-impact' },
          named.length ? [h('span', { class: 'change-impact-title' }, 'Breaks:'), consumerList(named, 'affected')] : null,
          // The report lists the first of many: say how many more.
          (change.affectedConsumersTotal ?? 0) > named.length
            ? h('p', { class: 'muted more-affected' }, `and ${consumersCount((change.affectedConsumersTotal ?? 0) - named.length)} more`)
            : null,
          impact.mayBeAffected.length
            ? h('p', { class: 'muted may-be-affected-note' }, `${consumersCount(impact.mayBeAffected.length)} named no operations and may be affected.`)
            : null,
        )
      : null,
  );
}
