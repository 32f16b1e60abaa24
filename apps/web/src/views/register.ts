import type { ApiRecord, ApiRegistration } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, statusLine, watchStatus } from '../components.js';
import type { ViewContext } from '../context.js';
import { h, replace } from '../dom.js';
import { fileExtensions, knownKinds } from '../kinds.js';
import { LABEL_LIMITS, labelLines, parseLabelLines } from '../labels.js';
import { specInfo } from '../spec-info.js';

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

/** Register an API (or update one: #/register?apiId=…), then watch it index. */
export async function registerView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const apiId = ctx.params.get('apiId') ?? undefined;
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
  // An update sends the whole spec again: offer the one registered now, to edit rather than retype.
  let current: string | undefined;
  let currentError: unknown;
  if (existing) {
    try {
      current = (await ragApiClient.getSpec(session.token, existing.apiId)).text;
    } catch (error) {
      currentError = error;
    }
  }

  const field = (label: string, input: HTMLElement, hint?: string) => h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
  const name = h('input', { id: 'api-name', required: true, maxLength: 200, value: existing?.name ?? '' });
  const version = h('input', { id: 'api-version', required: true, maxLength: 100, value: existing?.version ?? '' });
  const team = h('input', { id: 'api-team', maxLength: 100, value: existing?.teamName ?? '' });
  const description = h('textarea', { id: 'api-description', rows: 2, maxLength: 5000, value: existing?.description ?? '' });
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
  const spec = h('textarea', { id: 'api-spec', rows: 14, required: !existing, spellcheck: false, value: current ?? '', placeholder: `Paste the spec's text${formatsRead()}, or choose a file above` });
  // Detected by the server unless a person names it: then the server reads it as that, and says why it is not.
  const format = h('select', { id: 'api-format', name: 'format' }, formatOptions().map(([value, label]) => h('option', { value }, label)));
  // What the last chosen file put in Name and Version: the next file may replace it, never what a person typed.
  const filled = { name: '', version: '' };
  const fill = (input: HTMLInputElement, key: keyof typeof filled, value: string | undefined) => {
    if (input.value !== '' && input.value !== filled[key]) return;
    input.value = value ?? '';
    filled[key] = input.value;
  };
  const file = h('input', { id: 'api-spec-file', type: 'file', accept: specFileTypes(), onchange: async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    spec.value = await chosen.text();
    const info = specInfo(spec.value, chosen.name);
    fill(name, 'name', info.title);
    fill(version, 'version', info.version);
  } });
  // Below a long form: each result is brought into view and focused, so nobody misses it.
  const outcome = h('div', { id: 'register-outcome', 'aria-live': 'polite', tabindex: -1 });
  const showOutcome = (content: HTMLElement) => {
    replace(outcome, content);
    outcome.scrollIntoView({ block: 'start' });
    outcome.focus({ preventScroll: true });
  };
  const specHint = !existing ? `its text or JSON${formatsRead()}`
    : current !== undefined ? `the spec registered now (revision ${existing.revision}): edit it or choose a file; the update sends it whole`
    : 'the whole spec again';
  const submit = h('button', { type: 'submit', class: 'primary' }, existing ? 'Update' : 'Register');

  const form = h(
    'form',
    { class: 'register-form', onsubmit: async (event: Event) => {
      event.preventDefault();
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
      };
      submit.disabled = true;
      replace(outcome, h('p', { class: 'loading' }, 'Sending…'));
      try {
        const record = existing ? await ragApiClient.updateApi(session.token, existing.apiId, body) : await ragApiClient.registerApi(session.token, body);
        const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
        showOutcome(h('div', { class: 'success' },
          h('p', {}, `${existing ? 'Updated' : 'Registered'} `, h('a', { href: `#/apis/${record.apiId}` }, `${record.name} v${record.version}`), ` in ${record.orgId}. Indexing runs in the background:`),
          status));
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
    } },
    field('Name', name),
    field('Version', version),
    field('Team', team, 'optional'),
    field('Description', description, 'optional; the spec\'s own description is indexed too'),
    // Not all in a <label>: the error is told once, by its alert, not again as the box's name.
    h('div', { class: 'field' }, h('label', { for: 'api-labels' }, h('span', {}, 'Labels')), labelsField,
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
    h('h1', {}, existing ? `Update ${existing.name}` : `Register an API in ${session.org}`),
    form,
    outcome,
  );
  (existing ? spec : name).focus();
}
