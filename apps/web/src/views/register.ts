import type {
  ApiImportRequest,
  ApiRecord,
  ApiRegistration,
  ApiVersionRecord,
  ChangeCounts,
  ChangeImpact,
  LifecycleStage,
} from '../../../../libs/contracts/src/index.js';
import { REGISTRATION_LIMITS } from '../../../../libs/contracts/src/api-record.js';
import { IMPORT_LIMITS } from '../../../../libs/contracts/src/sources.js';
import { DEFAULT_LIFECYCLE, LIFECYCLE_STAGES } from '../../../../libs/contracts/src/versions.js';
import { ApiError, ragApiClient } from '../api-client.js';
import { errorBox, statusLine, versionLabel, watchStatus } from '../components.js';
import { consumerList, consumersCount, withForceConfirm } from '../consumer-parts.js';
import type { ViewContext } from '../context.js';
import { h, handler, replace } from '../dom.js';
import { fileExtensions, knownKinds } from '../kinds.js';
import { LABEL_LIMITS, type Labels, labelLines, parseLabelLines } from '../labels.js';
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

/** The consumers of the version a new spec follows that its breaking changes reach: named, and those that may be. */
function impactNotice(impact: ChangeImpact | undefined): HTMLElement | null {
  if (!impact || (impact.affected.length === 0 && impact.mayBeAffected.length === 0)) return null;
  return h(
    'div',
    { id: 'register-impact', class: 'notice' },
    impact.affected.length ? [h('strong', {}, `It breaks ${consumersCount(impact.affected.length)}:`), consumerList(impact.affected, 'affected')] : null,
    impact.mayBeAffected.length
      ? [
          h('p', {}, `${consumersCount(impact.mayBeAffected.length)} named no operations and may be affected:`),
          consumerList(impact.mayBeAffected, 'may-be-affected'),
        ]
      : null,
  );
}

/** What a registration's answer says the publisher should know: warnings (breaking changes), the consumers they reach, and what changed. */
function registrationNotes(answer: { warnings?: string[]; changes?: ChangeCounts; impact?: ChangeImpact }, compare?: string): (HTMLElement | null)[] {
  return [
    answer.warnings?.length
      ? h(
          'div',
          { id: 'register-warnings', class: 'notice register-warnings', role: 'alert' },
          h('strong', {}, 'Warning'),
          h(
            'ul',
            {},
            answer.warnings.map((warning) => h('li', {}, warning)),
          ),
        )
      : null,
    impactNotice(answer.impact),
    answer.changes
      ? h(
          'p',
          { id: 'register-changes', class: 'muted' },
          `Compared with the spec it follows: ${changeCountsText(answer.changes)}`,
          compare ? [' ', h('a', { href: compare }, 'What changed')] : null,
        )
      : null,
  ];
}

/** New APIs come from a spec pasted or chosen here, or from a URL the server fetches (#/register?mode=import). */
function modeSwitch(importing: boolean): HTMLElement {
  const tab = (id: string, href: string, label: string, active: boolean) =>
    h('a', { id, href, class: active ? 'register-mode active' : 'register-mode', 'aria-current': active ? 'page' : undefined }, label);
  return h(
    'nav',
    { class: 'register-modes', 'aria-label': 'Where the spec comes from' },
    tab('mode-paste', '#/register', 'Paste or choose a file', !importing),
    tab('mode-import', '#/register?mode=import', 'Import from URL', importing),
  );
}

/** What to do about a failed import, by status, where the server's detail alone does not say it. */
const IMPORT_HINTS: Partial<Record<number, string>> = {
  413: 'Import a smaller spec, or ask for a higher SPEC_MAX_BYTES.',
  415: 'The URL must serve the spec itself (JSON, YAML or text), not a web page about it.',
  504: "The spec's server did not answer in time: check the URL, or try again later.",
};

/** The statuses of an import that are about its URL (the address, what it served, how fast), not the spec's fields. */
function aboutTheUrl(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return [413, 415, 422, 504].includes(error.status) || (error.status === 400 && /^url\b/.test(error.problem.detail));
}

/** A field: its name, the input, and a hint under it. */
function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
}

/** Detected by the server unless a person names it: then the server reads it as that, and says why it is not. */
function formatSelect(id: string): HTMLSelectElement {
  return h(
    'select',
    { id, name: 'format' },
    formatOptions().map(([value, label]) => h('option', { value }, label)),
  );
}

function lifecycleSelect(id: string, selected: LifecycleStage | undefined): HTMLSelectElement {
  return h(
    'select',
    { id, name: 'lifecycle' },
    LIFECYCLE_STAGES.map((stage) => h('option', { value: stage, selected: stage === selected }, stage)),
  );
}

/** Where a submission's answer shows. */
interface Outcome {
  element: HTMLElement;
  show: (content: HTMLElement) => void;
}

/** Below a long form: each result is brought into view and focused, so nobody misses it. */
function outcomeArea(): Outcome {
  const element = h('div', { id: 'register-outcome', 'aria-live': 'polite', tabindex: -1 });
  const show = (content: HTMLElement) => {
    replace(element, content);
    element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
  };
  return { element, show };
}

/** Keeps `status` (inside the outcome) showing how the API's indexing goes, until the page is left. */
function watchIndexing(ctx: ViewContext, apiId: string, status: HTMLElement, outcome: Outcome): void {
  ctx.onLeave(
    watchStatus(
      () => ragApiClient.getIndexingStatus(ctx.session.token, apiId),
      (next) => {
        replace(status, statusLine(next));
        // A longer status line must not slip below the screen of someone still reading it.
        if (document.activeElement === outcome.element) outcome.element.scrollIntoView({ block: 'nearest' });
      },
    ),
  );
}

/** The import form's inputs. */
interface ImportFields {
  url: HTMLInputElement;
  name: HTMLInputElement;
  version: HTMLInputElement;
  team: HTMLInputElement;
  format: HTMLSelectElement;
  lifecycle: HTMLSelectElement;
}

/**
 * Import an API from a URL (#/register?mode=import): the server fetches the spec (only from the
 * addresses it allows), registers it as an upload and keeps the URL to refresh from. Name and
 * version come from the spec unless typed.
 */
function importView(ctx: ViewContext): void {
  const outcome = outcomeArea();
  const url = h('input', {
    id: 'import-url',
    name: 'url',
    type: 'url',
    required: true,
    maxLength: IMPORT_LIMITS.urlMaxChars,
    spellcheck: false,
    autocomplete: 'off',
    placeholder: 'https://specs.example.com/payments/openapi.yaml',
    'aria-describedby': 'import-url-hint',
    oninput: () => {
      url.removeAttribute('aria-invalid');
      url.setAttribute('aria-describedby', 'import-url-hint');
    },
  });
  const fields: ImportFields = {
    url,
    name: h('input', { id: 'import-name', name: 'name', maxLength: REGISTRATION_LIMITS.nameMaxChars }),
    version: h('input', { id: 'import-version', name: 'version', maxLength: REGISTRATION_LIMITS.versionMaxChars }),
    team: h('input', { id: 'import-team', name: 'teamName', maxLength: REGISTRATION_LIMITS.teamNameMaxChars }),
    format: formatSelect('import-format'),
    lifecycle: lifecycleSelect('import-lifecycle', DEFAULT_LIFECYCLE),
  };
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Import');
  const form = h(
    'form',
    {
      class: 'register-form import-form',
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        await submitImport(ctx, fields, submit, outcome);
      }),
    },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'import-url' }, h('span', {}, 'URL')),
      url,
      h(
        'small',
        { class: 'muted', id: 'import-url-hint' },
        'http or https; the server fetches it, from public addresses and those its operator allows, and can refresh it later',
      ),
    ),
    field('Name', fields.name, "optional; the spec's title, or the URL's file name, when left empty"),
    field('Version', fields.version, "optional; the spec's version (else 1) when left empty"),
    field('Lifecycle', fields.lifecycle),
    field('Team', fields.team, 'optional'),
    field('Format', fields.format, 'what kind of spec it is; detected from the text when not chosen'),
    h('div', { class: 'actions' }, submit),
  );
  replace(ctx.main, h('h1', {}, `Register an API in ${ctx.session.org}`), modeSwitch(true), form, outcome.element);
  url.focus();
}

/** `POST …/import`: what was typed is sent, what was left empty the server takes from the spec or the URL. */
async function submitImport(ctx: ViewContext, fields: ImportFields, submit: HTMLButtonElement, outcome: Outcome): Promise<void> {
  const { session } = ctx;
  const { url, name, version, team, format, lifecycle } = fields;
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
  replace(outcome.element, h('p', { class: 'loading' }, 'Fetching the spec…'));
  try {
    const record = await ragApiClient.importApi(session.token, body);
    const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
    outcome.show(
      h(
        'div',
        { class: 'success' },
        h(
          'p',
          {},
          'Imported ',
          h('a', { href: `#/apis/${record.apiId}`, id: 'imported-api' }, `${record.name} ${versionLabel(record.version)}`),
          ` in ${record.orgId} from `,
          h('code', { class: 'path' }, record.source?.url ?? body.url),
          '. Indexing runs in the background:',
        ),
        status,
        h('p', { class: 'muted' }, 'Its page shows where the spec comes from, and refreshes it from the URL.'),
      ),
    );
    watchIndexing(ctx, record.apiId, status, outcome);
  } catch (error) {
    // Said where it happened: the URL field is marked and points at what was wrong with it.
    if (aboutTheUrl(error)) {
      url.setAttribute('aria-invalid', 'true');
      url.setAttribute('aria-describedby', 'import-url-hint register-outcome');
    }
    outcome.show(errorBox(error, 'Import refused', IMPORT_HINTS));
  } finally {
    submit.disabled = false;
  }
}

/** What the register form is for: a new API (no `existing`), an update of one of its versions, or a new version of it. */
interface RegisterTarget {
  existing?: ApiRecord;
  addingVersion: boolean;
  /** The version an update replaces the spec of; undefined unless updating. */
  updating?: string;
  /** `updating`, when it is not the recommended version: the update names it. */
  updatingOther?: string;
  updatingStage?: LifecycleStage;
  /** The spec registered now, or why it could not be loaded, and its revision. */
  current?: string;
  currentError?: unknown;
  revision?: number;
}

/** An update's version (the recommended one, or the one named: `&version=`), its stage, and the spec registered now. */
async function registerTarget(token: string, existing: ApiRecord | undefined, addingVersion: boolean, named: string | null): Promise<RegisterTarget> {
  const updating = existing && !addingVersion ? named || existing.version : undefined;
  const updatingOther = updating !== undefined && updating !== existing?.version ? updating : undefined;
  const updatingStage = existing?.versions.find((item) => item.version === updating)?.lifecycle ?? existing?.lifecycle;
  const target: RegisterTarget = { existing, addingVersion, updating, updatingOther, updatingStage };
  // An update sends the whole spec again: offer the one registered now, to edit rather than retype.
  if (existing && !addingVersion) {
    try {
      target.current = (await ragApiClient.getSpec(token, existing.apiId, { version: updatingOther })).text;
    } catch (error) {
      target.currentError = error;
    }
  }
  target.revision = updatingOther
    ? (await ragApiClient.listVersions(token, existing!.apiId).catch(() => undefined))?.items.find((item) => item.version === updatingOther)?.revision
    : existing?.revision;
  return target;
}

/** The register form's inputs, an update's filled from the API and the spec registered now. */
function registerFields(target: RegisterTarget) {
  const { existing, addingVersion, updating } = target;
  const name = h('input', { id: 'api-name', required: true, maxLength: REGISTRATION_LIMITS.nameMaxChars, value: existing?.name ?? '' });
  const version = h('input', {
    id: 'api-version',
    required: true,
    maxLength: REGISTRATION_LIMITS.versionMaxChars,
    value: addingVersion ? '' : (updating ?? ''),
  });
  // A new API or version starts in production unless chosen otherwise; an update keeps the version's stage unless changed.
  const lifecycle = lifecycleSelect('api-lifecycle', updating ? target.updatingStage : DEFAULT_LIFECYCLE);
  const team = h('input', { id: 'api-team', maxLength: REGISTRATION_LIMITS.teamNameMaxChars, value: existing?.teamName ?? '' });
  const description = h('textarea', { id: 'api-description', rows: 2, maxLength: REGISTRATION_LIMITS.descriptionMaxChars, value: existing?.description ?? '' });
  // One key=value a line, checked here as the server checks them; an update starts from the API's own.
  const labelsError = h('span', { id: 'api-labels-error', class: 'error-text field-error', role: 'alert' });
  const labels = h('textarea', {
    id: 'api-labels',
    name: 'labels',
    rows: 3,
    spellcheck: false,
    autocomplete: 'off',
    value: existing ? labelLines(existing.labels) : '',
    placeholder: 'team=payments\nenv=prod',
    'aria-describedby': 'api-labels-hint api-labels-error',
    oninput: () => {
      labelsError.textContent = '';
      labels.removeAttribute('aria-invalid');
    },
  });
  const spec = h('textarea', {
    id: 'api-spec',
    rows: 14,
    required: !updating,
    spellcheck: false,
    value: target.current ?? '',
    placeholder: `Paste the spec's text${formatsRead()}, or choose a file above`,
  });
  const format = formatSelect('api-format');
  const file = specFilePicker(spec, name, version, addingVersion);
  return { name, version, lifecycle, team, description, labels, labelsError, spec, format, file };
}

type RegisterFields = ReturnType<typeof registerFields>;

/** Choosing a file puts its text in the Spec box, and its title and version in Name (not for a new version) and Version. */
function specFilePicker(spec: HTMLTextAreaElement, name: HTMLInputElement, version: HTMLInputElement, addingVersion: boolean): HTMLInputElement {
  // What the last chosen file put in Name and Version: the next file may replace it, never what a person typed.
  const filled = { name: '', version: '' };
  const fill = (input: HTMLInputElement, key: keyof typeof filled, value: string | undefined) => {
    if (input.value !== '' && input.value !== filled[key]) return;
    input.value = value ?? '';
    filled[key] = input.value;
  };
  const file = h('input', {
    id: 'api-spec-file',
    type: 'file',
    accept: specFileTypes(),
    onchange: handler(async () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      spec.value = await chosen.text();
      const info = specInfo(spec.value, chosen.name);
      if (!addingVersion) fill(name, 'name', info.title);
      fill(version, 'version', info.version);
    }),
  });
  return file;
}

const LIFECYCLE_HINT = 'production: offered by search; design to preview: not ready yet; deprecated: still served, ranked lower; retired: never searched';

/** The form's fields, in order: a new version has no name, team, description or labels of its own. */
function registerRows(target: RegisterTarget, fields: RegisterFields): (HTMLElement | null)[] {
  const { existing, addingVersion, updating, current, currentError } = target;
  const specHint = !updating
    ? `its text or JSON${formatsRead()}`
    : current !== undefined
      ? `the spec registered now (revision ${target.revision ?? '?'}): edit it or choose a file; the update sends it whole`
      : 'the whole spec again';
  return [
    addingVersion ? null : field('Name', fields.name),
    field('Version', fields.version, addingVersion ? `beside ${existing!.versions.map((item) => versionLabel(item.version)).join(', ')}` : undefined),
    field('Lifecycle', fields.lifecycle, LIFECYCLE_HINT),
    addingVersion ? null : field('Team', fields.team, 'optional'),
    addingVersion ? null : field('Description', fields.description, "optional; the spec's own description is indexed too"),
    // Not all in a <label>: the error is told once, by its alert, not again as the box's name.
    addingVersion
      ? null
      : h(
          'div',
          { class: 'field' },
          h('label', { for: 'api-labels' }, h('span', {}, 'Labels')),
          fields.labels,
          h(
            'small',
            { class: 'muted', id: 'api-labels-hint' },
            `optional; one key=value a line, at most ${LABEL_LIMITS.maxLabels}; keys: ${LABEL_LIMITS.keyRule}; values up to ${LABEL_LIMITS.valueMaxChars} characters`,
          ),
          fields.labelsError,
        ),
    field('Format', fields.format, 'what kind of spec it is; detected from the text when not chosen'),
    field('Spec file', fields.file),
    field('Spec', fields.spec, specHint),
    currentError ? errorBox(currentError, 'Could not load the current spec; paste it or choose the file') : null,
  ];
}

/** What a submission of the register form reads and writes. */
interface RegisterForm {
  ctx: ViewContext;
  target: RegisterTarget;
  fields: RegisterFields;
  submit: HTMLButtonElement;
  outcome: Outcome;
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
    replace(
      ctx.main,
      h('h1', {}, 'Register an API'),
      h('p', { class: 'empty' }, 'Registering needs the publisher role; your token has: ', session.claims.roles.join(', ') || 'none', '.'),
    );
    return;
  }
  if (!apiId && ctx.params.get('mode') === 'import') return importView(ctx);
  const target = await registerTarget(session.token, existing, addingVersion, ctx.params.get('version'));
  const { updatingOther } = target;
  const fields = registerFields(target);
  const submit = h('button', { type: 'submit', class: 'primary' }, addingVersion ? 'Add version' : existing ? 'Update' : 'Register');
  const parts: RegisterForm = { ctx, target, fields, submit, outcome: outcomeArea() };
  const form = h(
    'form',
    {
      class: 'register-form',
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        await (existing && addingVersion ? addVersion(parts, existing) : registerOrUpdate(parts));
      }),
    },
    registerRows(target, fields),
    h('div', { class: 'actions' }, submit),
  );
  replace(
    ctx.main,
    h(
      'h1',
      {},
      addingVersion
        ? `New version of ${existing!.name}`
        : existing
          ? `Update ${existing.name}${updatingOther ? ` ${versionLabel(updatingOther)}` : ''}`
          : `Register an API in ${session.org}`,
    ),
    existing ? null : modeSwitch(false),
    form,
    parts.outcome.element,
  );
  (addingVersion ? fields.version : existing ? fields.spec : fields.name).focus();
}

/** The Labels box's labels; undefined, with the mistake told beside the box, when the server would refuse them. */
function readLabels(fields: RegisterFields): Labels | undefined {
  const parsed = parseLabelLines(fields.labels.value);
  if (!('error' in parsed)) return parsed.labels;
  fields.labelsError.textContent = parsed.error;
  fields.labels.setAttribute('aria-invalid', 'true');
  fields.labels.focus();
  return undefined;
}

/** `POST …/apis` or `PUT …/apis/:apiId` (its recommended version, or the one updated): the whole spec, then its indexing. */
async function registerOrUpdate(parts: RegisterForm): Promise<void> {
  const {
    ctx,
    target: { existing, updatingStage, updatingOther },
    fields,
    submit,
    outcome,
  } = parts;
  const { session } = ctx;
  const { name, version, team, description, spec, format, lifecycle } = fields;
  if (existing && !spec.value.trim()) {
    outcome.show(errorBox(new Error('An update needs the whole spec again: paste it or choose the file.'), 'Nothing sent'));
    return;
  }
  const labels = readLabels(fields);
  if (!labels) return;
  // Always sent: on an update, what the field holds replaces the API's labels (emptied, `{}` clears them).
  const body: ApiRegistration = {
    orgId: existing?.orgId ?? session.org,
    name: name.value.trim(),
    version: version.value.trim(),
    ...(team.value.trim() ? { teamName: team.value.trim() } : {}),
    ...(description.value.trim() ? { description: description.value.trim() } : {}),
    spec: spec.value,
    ...(format.value ? { format: format.value } : {}),
    labels,
    // A new API's stage always; an update's only when changed (absent: the version keeps its own).
    ...(!existing || lifecycle.value !== updatingStage ? { lifecycle: lifecycle.value as LifecycleStage } : {}),
  };
  submit.disabled = true;
  replace(outcome.element, h('p', { class: 'loading' }, 'Sending…'));
  // Retiring a version consumers use (its stage chosen here): the 409 names them, and asks before going ahead.
  await withForceConfirm(
    outcome.element,
    existing ? 'Update refused' : 'Registration refused',
    `Retire ${versionLabel(body.version)} anyway`,
    async (force) => {
      const sent = force ? { ...body, force: true } : body;
      const record = existing
        ? await ragApiClient.updateApi(session.token, existing.apiId, sent, updatingOther)
        : await ragApiClient.registerApi(session.token, sent);
      const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
      outcome.show(
        h(
          'div',
          { class: 'success' },
          h(
            'p',
            {},
            `${existing ? 'Updated' : 'Registered'} `,
            h('a', { href: `#/apis/${record.apiId}` }, `${record.name} v${record.version}`),
            ` in ${record.orgId}. Indexing runs in the background:`,
          ),
          status,
          registrationNotes(record),
        ),
      );
      watchIndexing(ctx, record.apiId, status, outcome);
    },
    outcome.show,
  );
  submit.disabled = false;
}

/** `POST …/versions`: the answer says whether search moved to it, and what it breaks. */
async function addVersion(parts: RegisterForm, api: ApiRecord): Promise<void> {
  const {
    ctx,
    fields: { version, spec, lifecycle, format },
    submit,
    outcome,
  } = parts;
  const { session } = ctx;
  if (!spec.value.trim()) {
    outcome.show(errorBox(new Error('A new version needs its spec: paste it or choose the file.'), 'Nothing sent'));
    return;
  }
  submit.disabled = true;
  replace(outcome.element, h('p', { class: 'loading' }, 'Sending…'));
  let record: ApiVersionRecord;
  try {
    record = await ragApiClient.addVersion(session.token, api.apiId, {
      version: version.value.trim(),
      spec: spec.value,
      lifecycle: lifecycle.value as LifecycleStage,
      ...(format.value ? { format: format.value } : {}),
    });
  } catch (error) {
    outcome.show(errorBox(error, 'New version refused'));
    return;
  } finally {
    submit.disabled = false;
  }
  const link = h(
    'a',
    { href: versionHash(api.apiId, record.version, record.recommended ? record.version : api.version) },
    `${api.name} ${versionLabel(record.version)}`,
  );
  const status = h('div', { id: 'registered-status' }, record.recommended ? statusLine(record.indexing) : null);
  outcome.show(
    h(
      'div',
      { class: 'success' },
      h(
        'p',
        {},
        'Added ',
        link,
        ` (${record.lifecycle}).`,
        record.recommended
          ? ' It is now the recommended version: search and agents move to it once it is indexed.'
          : ` Search and agents keep ${versionLabel(api.version)}, the recommended version.`,
      ),
      status,
      // Compared with the version in production: the recommended one, unless it is this one.
      registrationNotes(record, changesHash(api.apiId, record.recommended ? undefined : api.version, record.version)),
    ),
  );
  if (record.recommended) {
    ctx.onLeave(
      watchStatus(
        () => ragApiClient.getIndexingStatus(session.token, api.apiId),
        (next) => replace(status, statusLine(next)),
      ),
    );
  }
}
