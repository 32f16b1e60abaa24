import type { ApiImportRequest, ApiRecord, ApiRegistration, ApiVersionRecord, ChangeCounts, LifecycleStage } from '../../../../libs/contracts/src/index.js';
import { REGISTRATION_LIMITS } from '../../../../libs/contracts/src/api-record.js';
import { IMPORT_LIMITS } from '../../../../libs/contracts/src/sources.js';
import { DEFAULT_LIFECYCLE, LIFECYCLE_STAGES } from '../../../../libs/contracts/src/versions.js';
import { ApiError, ragApiClient } from '../api-client.js';
import { errorBox, statusLine, versionLabel, watchStatus } from '../components.js';
import type { ViewContext } from '../context.js';
import { h, handler, replace } from '../dom.js';
import { fileExtensions, knownKinds } from '../kinds.js';
import { LABEL_LIMITS, labelLines, parseLabelLines } from '../labels.js';
import { specInfo } from '../spec-info.js';
import { changeCountsText } from './changes.js';
import { changesHash, versionHash } from './versions.js';

/** The `format` a registration may name (`ApiRegistration.format`): each kind the server reads; empty: the server detects it. */
function formatOptions(): [string, string][] {
  return [['', 'Detect automatically'], ...knownKinds().map((known): [string, string] => [known.kind, known.label])];
}

/** ` (OpenAPI 2.0, 3.0 and 3.1; …)`: what the server reads, as its kinds say; nothing when they are not known. */
function formatsRead(): string {
  const labels = knownKinds().map((known) => known.label);
  return labels.length ? ` (${labels.join('; ')})` : '';
}

/** What the file chooser offers: every kind's file names (and .txt, for text a tool wrote out); any file while the kinds are not known. */
function specFileTypes(): string | undefined {
  const extensions = fileExtensions();
  return extensions.length ? [...extensions, '.txt'].join(',') : undefined;
}

/** What a registration's answer says the publisher should know: warnings (breaking changes) and what changed. */
function registrationNotes(answer: { warnings?: string[]; changes?: ChangeCounts }, compare?: string): (HTMLElement | null)[] {
  return [
    answer.warnings?.length
      ? h('div', { id: 'register-warnings', class: 'notice register-warnings', role: 'alert' },
          h('strong', {}, 'Warning'), h('ul', {}, answer.warnings.map((warning) => h('li', {}, warning))))
      : null,
    answer.changes
      ? h('p', { id: 'register-changes', class: 'muted' },
          `Compared with the spec it follows: ${changeCountsText(answer.changes)}`,
          compare ? [' ', h('a', { href: compare }, 'What changed')] : null)
      : null,
  ];
}

/** New APIs come from a spec pasted or chosen here, or from a URL the server fetches (#/register?mode=import). */
function modeSwitch(importing: boolean): HTMLElement {
  const tab = (id: string, href: string, label: string, active: boolean) =>
    h('a', { id, href, class: active ? 'register-mode active' : 'register-mode', 'aria-current': active ? 'page' : undefined }, label);
  return h('nav', { class: 'register-modes', 'aria-label': 'Where the spec comes from' },
    tab('mode-paste', '#/register', 'Paste or choose a file', !importing),
    tab('mode-import', '#/register?mode=import', 'Import from URL', importing));
}

/** What to do about a failed import, by status, where the server's detail alone does not say it. */
const IMPORT_HINTS: Partial<Record<number, string>> = {
  413: 'Import a smaller spec, or ask for a higher SPEC_MAX_BYTES.',
  415: 'The URL must serve the spec itself (JSON, YAML or text), not a web page about it.',
  504: 'The spec\'s server did not answer in time: check the URL, or try again later.',
};

/** The statuses of an import that are about its URL (the address, what it served, how fast), not the spec's fields. */
function aboutTheUrl(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return [413, 415, 422, 504].includes(error.status) || (error.status === 400 && /^url\b/.test(error.problem.detail));
}

/**
 * Import an API from a URL (#/register?mode=import): the server fetches the spec (only from the
 * addresses it allows), registers it as an upload and keeps the URL to refresh from. Name and
 * version come from the spec unless typed.
 */
function importView(ctx: ViewContext): void {
  const { session } = ctx;
  const field = (label: string, input: HTMLElement, hint?: string) => h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
  const outcome = h('div', { id: 'register-outcome', 'aria-live': 'polite', tabindex: -1 });
  const showOutcome = (content: HTMLElement) => {
    replace(outcome, content);
    outcome.scrollIntoView({ block: 'start' });
    outcome.focus({ preventScroll: true });
  };
  const url = h('input', {
    id: 'import-url', name: 'url', type: 'url', required: true, maxLength: IMPORT_LIMITS.urlMaxChars, spellcheck: false, autocomplete: 'off',
    placeholder: 'https://specs.example.com/payments/openapi.yaml', 'aria-describedby': 'import-url-hint',
    oninput: () => {
      url.removeAttribute('aria-invalid');
      url.setAttribute('aria-describedby', 'import-url-hint');
    },
  });
  const name = h('input', { id: 'import-name', name: 'name', maxLength: REGISTRATION_LIMITS.nameMaxChars });
  const version = h('input', { id: 'import-version', name: 'version', maxLength: REGISTRATION_LIMITS.versionMaxChars });
  const team = h('input', { id: 'import-team', name: 'teamName', maxLength: REGISTRATION_LIMITS.teamNameMaxChars });
  const format = h('select', { id: 'import-format', name: 'format' }, formatOptions().map(([value, label]) => h('option', { value }, label)));
  const lifecycle = h('select', { id: 'import-lifecycle', name: 'lifecycle' }, LIFECYCLE_STAGES.map((stage) => h('option', { value: stage, selected: stage === DEFAULT_LIFECYCLE }, stage)));
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Import');
  const form = h('form', { class: 'register-form import-form', onsubmit: handler(async (event: Event) => {
    event.preventDefault();
    const body: ApiImportRequest = {
      orgId: session.org,
      url: url.value.trim(),
      ...(name.value.trim() ? { name: name.value.trim() } : {}),
      ...(version.value.trim() ? { version: version.value.trim() } : {}),
      ...(team.value.trim() ? { teamName: team.value.trim() } : {}),
      ...(format.value ? { format: format.value } : {}),
      lifecycle: lifecycle.value as LifecycleStage,
    };
    submit.disabled = true;
    replace(outcome, h('p', { class: 'loading' }, 'Fetching the spec…'));
    try {
      const record = await ragApiClient.importApi(session.token, body);
      const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
      showOutcome(h('div', { class: 'success' },
        h('p', {}, 'Imported ', h('a', { href: `#/apis/${record.apiId}`, id: 'imported-api' }, `${record.name} ${versionLabel(record.version)}`), ` in ${record.orgId} from `,
          h('code', { class: 'path' }, record.source?.url ?? body.url), '. Indexing runs in the background:'),
        status,
        h('p', { class: 'muted' }, 'Its page shows where the spec comes from, and refreshes it from the URL.')));
      ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, record.apiId), (next) => {
        replace(status, statusLine(next));
        if (document.activeElement === outcome) outcome.scrollIntoView({ block: 'nearest' });
      }));
    } catch (error) {
      // Said where it happened: the URL field is marked and points at what was wrong with it.
      if (aboutTheUrl(error)) {
        url.setAttribute('aria-invalid', 'true');
        url.setAttribute('aria-describedby', 'import-url-hint register-outcome');
      }
      showOutcome(errorBox(error, 'Import refused', IMPORT_HINTS));
    } finally {
      submit.disabled = false;
    }
  }) },
  h('div', { class: 'field' }, h('label', { for: 'import-url' }, h('span', {}, 'URL')), url,
    h('small', { class: 'muted', id: 'import-url-hint' }, 'http or https; the server fetches it, from public addresses and those its operator allows, and can refresh it later')),
  field('Name', name, 'optional; the spec\'s title, or the URL\'s file name, when left empty'),
  field('Version', version, 'optional; the spec\'s version (else 1) when left empty'),
  field('Lifecycle', lifecycle),
  field('Team', team, 'optional'),
  field('Format', format, 'what kind of spec it is; detected from the text when not chosen'),
  h('div', { class: 'actions' }, submit));
  replace(ctx.main, h('h1', {}, `Register an API in ${session.org}`), modeSwitch(true), form, outcome);
  url.focus();
}

/**
 * Register an API (#/register, or from a URL: ?mode=import), update one (#/register?apiId=…, its
 * recommended version; &version=… another), or add a version to one (#/register?apiId=…&mode=version);
 * then watch it index.
 */
export async function registerView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const apiId = ctx.params.get('apiId') ?? undefined;
  const addingVersion = apiId !== undefined && ctx.params.get('mode') === 'version';
  let existing: ApiRecord | undefined;
  if (apiId) {
    try {
      existing = await ragApiClient.getApi(session.token, apiId);
    } catch (error) {
      replace(ctx.main, errorBox(error, 'Could not load this API'));
      return;
    }
  }
  if (!session.can('publisher')) {
    replace(ctx.main, h('h1', {}, 'Register an API'), h('p', { class: 'empty' }, 'Registering needs the publisher role; your token has: ', session.claims.roles.join(', ') || 'none', '.'));
    return;
  }
  if (!apiId && ctx.params.get('mode') === 'import') return importView(ctx);
  // An update sends the whole spec again: offer the one registered now, to edit rather than retype.
  // Updating: the recommended version, or the one named (`&version=`).
  const updating = existing && !addingVersion ? ctx.params.get('version') || existing.version : undefined;
  const updatingOther = updating !== undefined && updating !== existing?.version ? updating : undefined;
  const updatingStage = existing?.versions.find((item) => item.version === updating)?.lifecycle ?? existing?.lifecycle;
  let current: string | undefined;
  let currentError: unknown;
  if (existing && !addingVersion) {
    try {
      current = (await ragApiClient.getSpec(session.token, existing.apiId, { version: updatingOther })).text;
    } catch (error) {
      currentError = error;
    }
  }

  const field = (label: string, input: HTMLElement, hint?: string) => h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
  const name = h('input', { id: 'api-name', required: true, maxLength: REGISTRATION_LIMITS.nameMaxChars, value: existing?.name ?? '' });
  const version = h('input', { id: 'api-version', required: true, maxLength: REGISTRATION_LIMITS.versionMaxChars, value: addingVersion ? '' : updating ?? '' });
  // A new API or version starts in production unless chosen otherwise; an update keeps the version's stage unless changed.
  const lifecycle = h('select', { id: 'api-lifecycle', name: 'lifecycle' }, LIFECYCLE_STAGES.map((stage) =>
    h('option', { value: stage, selected: stage === (updating ? updatingStage : DEFAULT_LIFECYCLE) }, stage)));
  const team = h('input', { id: 'api-team', maxLength: REGISTRATION_LIMITS.teamNameMaxChars, value: existing?.teamName ?? '' });
  const description = h('textarea', { id: 'api-description', rows: 2, maxLength: REGISTRATION_LIMITS.descriptionMaxChars, value: existing?.description ?? '' });
  // One key=value a line, checked here as the server checks them; an update starts from the API's own.
  const labelsError = h('span', { id: 'api-labels-error', class: 'error-text field-error', role: 'alert' });
  const labelsField = h('textarea', {
    id: 'api-labels', name: 'labels', rows: 3, spellcheck: false, autocomplete: 'off', value: existing ? labelLines(existing.labels) : '',
    placeholder: 'team=payments\nenv=prod', 'aria-describedby': 'api-labels-hint api-labels-error',
    oninput: () => {
      labelsError.textContent = '';
      labelsField.removeAttribute('aria-invalid');
    },
  });
  const spec = h('textarea', { id: 'api-spec', rows: 14, required: !updating, spellcheck: false, value: current ?? '', placeholder: `Paste the spec's text${formatsRead()}, or choose a file above` });
  // Detected by the server unless a person names it: then the server reads it as that, and says why it is not.
  const format = h('select', { id: 'api-format', name: 'format' }, formatOptions().map(([value, label]) => h('option', { value }, label)));
  // What the last chosen file put in Name and Version: the next file may replace it, never what a person typed.
  const filled = { name: '', version: '' };
  const fill = (input: HTMLInputElement, key: keyof typeof filled, value: string | undefined) => {
    if (input.value !== '' && input.value !== filled[key]) return;
    input.value = value ?? '';
    filled[key] = input.value;
  };
  const file = h('input', { id: 'api-spec-file', type: 'file', accept: specFileTypes(), onchange: handler(async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    spec.value = await chosen.text();
    const info = specInfo(spec.value, chosen.name);
    if (!addingVersion) fill(name, 'name', info.title);
    fill(version, 'version', info.version);
  }) });
  // Below a long form: each result is brought into view and focused, so nobody misses it.
  const outcome = h('div', { id: 'register-outcome', 'aria-live': 'polite', tabindex: -1 });
  const showOutcome = (content: HTMLElement) => {
    replace(outcome, content);
    outcome.scrollIntoView({ block: 'start' });
    outcome.focus({ preventScroll: true });
  };
  const revision = updatingOther ? (await ragApiClient.listVersions(session.token, existing!.apiId).catch(() => undefined))?.items.find((item) => item.version === updatingOther)?.revision : existing?.revision;
  const specHint = !updating ? `its text or JSON${formatsRead()}`
    : current !== undefined ? `the spec registered now (revision ${revision ?? '?'}): edit it or choose a file; the update sends it whole`
    : 'the whole spec again';
  const submit = h('button', { type: 'submit', class: 'primary' }, addingVersion ? 'Add version' : existing ? 'Update' : 'Register');

  /** `POST …/versions`: the answer says whether search moved to it, and what it breaks. */
  const addVersion = async (api: ApiRecord) => {
    if (!spec.value.trim()) {
      showOutcome(errorBox(new Error('A new version needs its spec: paste it or choose the file.'), 'Nothing sent'));
      return;
    }
    submit.disabled = true;
    replace(outcome, h('p', { class: 'loading' }, 'Sending…'));
    let record: ApiVersionRecord;
    try {
      record = await ragApiClient.addVersion(session.token, api.apiId, {
        version: version.value.trim(), spec: spec.value, lifecycle: lifecycle.value as LifecycleStage, ...(format.value ? { format: format.value } : {}),
      });
    } catch (error) {
      showOutcome(errorBox(error, 'New version refused'));
      return;
    } finally {
      submit.disabled = false;
    }
    const link = h('a', { href: versionHash(api.apiId, record.version, record.recommended ? record.version : api.version) }, `${api.name} ${versionLabel(record.version)}`);
    const status = h('div', { id: 'registered-status' }, record.recommended ? statusLine(record.indexing) : null);
    showOutcome(h('div', { class: 'success' },
      h('p', {}, 'Added ', link, ` (${record.lifecycle}).`,
        record.recommended ? ' It is now the recommended version: search and agents move to it once it is indexed.' : ` Search and agents keep ${versionLabel(api.version)}, the recommended version.`),
      status,
      // Compared with the version in production: the recommended one, unless it is this one.
      registrationNotes(record, changesHash(api.apiId, record.recommended ? undefined : api.version, record.version))));
    if (record.recommended) {
      ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, api.apiId), (next) => replace(status, statusLine(next))));
    }
  };

  const lifecycleHint = 'production: offered by search; design to preview: not ready yet; deprecated: still served, ranked lower; retired: never searched';
  const form = h(
    'form',
    { class: 'register-form', onsubmit: handler(async (event: Event) => {
      event.preventDefault();
      if (existing && addingVersion) {
        await addVersion(existing);
        return;
      }
      if (existing && !spec.value.trim()) {
        showOutcome(errorBox(new Error('An update needs the whole spec again: paste it or choose the file.'), 'Nothing sent'));
        return;
      }
      const parsed = parseLabelLines(labelsField.value);
      if ('error' in parsed) {
        labelsError.textContent = parsed.error;
        labelsField.setAttribute('aria-invalid', 'true');
        labelsField.focus();
        return;
      }
      // Always sent: on an update, what the field holds replaces the API's labels (emptied, `{}` clears them).
      const body: ApiRegistration = {
        orgId: existing?.orgId ?? session.org,
        name: name.value.trim(),
        version: version.value.trim(),
        ...(team.value.trim() ? { teamName: team.value.trim() } : {}),
        ...(description.value.trim() ? { description: description.value.trim() } : {}),
        spec: spec.value,
        ...(format.value ? { format: format.value } : {}),
        labels: parsed.labels,
        // A new API's stage always; an update's only when changed (absent: the version keeps its own).
        ...(!existing || lifecycle.value !== updatingStage ? { lifecycle: lifecycle.value as LifecycleStage } : {}),
      };
      submit.disabled = true;
      replace(outcome, h('p', { class: 'loading' }, 'Sending…'));
      try {
        const record = existing ? await ragApiClient.updateApi(session.token, existing.apiId, body, updatingOther) : await ragApiClient.registerApi(session.token, body);
        const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
        showOutcome(h('div', { class: 'success' },
          h('p', {}, `${existing ? 'Updated' : 'Registered'} `, h('a', { href: `#/apis/${record.apiId}` }, `${record.name} v${record.version}`), ` in ${record.orgId}. Indexing runs in the background:`),
          status,
          registrationNotes(record)));
        ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, record.apiId), (next) => {
          replace(status, statusLine(next));
          // A longer status line must not slip below the screen of someone still reading it.
          if (document.activeElement === outcome) outcome.scrollIntoView({ block: 'nearest' });
        }));
      } catch (error) {
        showOutcome(errorBox(error, existing ? 'Update refused' : 'Registration refused'));
      } finally {
        submit.disabled = false;
      }
    }) },
    addingVersion ? null : field('Name', name),
    field('Version', version, addingVersion ? `beside ${existing!.versions.map((item) => versionLabel(item.version)).join(', ')}` : undefined),
    field('Lifecycle', lifecycle, lifecycleHint),
    addingVersion ? null : field('Team', team, 'optional'),
    addingVersion ? null : field('Description', description, 'optional; the spec\'s own description is indexed too'),
    // Not all in a <label>: the error is told once, by its alert, not again as the box's name.
    addingVersion ? null : h('div', { class: 'field' }, h('label', { for: 'api-labels' }, h('span', {}, 'Labels')), labelsField,
      h('small', { class: 'muted', id: 'api-labels-hint' }, `optional; one key=value a line, at most ${LABEL_LIMITS.maxLabels}; keys: ${LABEL_LIMITS.keyRule}; values up to ${LABEL_LIMITS.valueMaxChars} characters`),
      labelsError),
    field('Format', format, 'what kind of spec it is; detected from the text when not chosen'),
    field('Spec file', file),
    field('Spec', spec, specHint),
    currentError ? errorBox(currentError, 'Could not load the current spec; paste it or choose the file') : null,
    h('div', { class: 'actions' }, submit),
  );
  replace(
    ctx.main,
    h('h1', {}, addingVersion ? `New version of ${existing!.name}` : existing ? `Update ${existing.name}${updatingOther ? ` ${versionLabel(updatingOther)}` : ''}` : `Register an API in ${session.org}`),
    existing ? null : modeSwitch(false),
    form,
    outcome,
  );
  (addingVersion ? version : existing ? spec : name).focus();
}
