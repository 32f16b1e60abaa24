import type { ApiRecord, ApiRegistration } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, statusLine, watchStatus } from '../components.js';
import type { ViewContext } from '../context.js';
import { h, replace } from '../dom.js';

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

  const field = (label: string, input: HTMLElement, hint?: string) => h('label', { class: 'field' }, h('span', {}, label), input, hint ? h('small', { class: 'muted' }, hint) : null);
  const name = h('input', { id: 'api-name', required: true, maxLength: 200, value: existing?.name ?? '' });
  const version = h('input', { id: 'api-version', required: true, maxLength: 100, value: existing?.version ?? '' });
  const team = h('input', { id: 'api-team', maxLength: 100, value: existing?.teamName ?? '' });
  const description = h('textarea', { id: 'api-description', rows: 2, maxLength: 5000, value: existing?.description ?? '' });
  const spec = h('textarea', { id: 'api-spec', rows: 14, required: !existing, spellcheck: false, placeholder: 'Paste an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML), or choose a file above' });
  const file = h('input', { id: 'api-spec-file', type: 'file', accept: '.json,.yaml,.yml,application/json,application/yaml,text/yaml', onchange: async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    spec.value = await chosen.text();
    if (!name.value) name.value = chosen.name.replace(/\.(json|ya?ml)$/i, '');
  } });
  const outcome = h('div', { id: 'register-outcome', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'primary' }, existing ? 'Update' : 'Register');

  const form = h(
    'form',
    { class: 'register-form', onsubmit: async (event: Event) => {
      event.preventDefault();
      if (existing && !spec.value.trim()) {
        replace(outcome, errorBox(new Error('An update needs the whole spec again: paste it or choose the file.'), 'Nothing sent'));
        return;
      }
      const body: ApiRegistration = {
        orgId: existing?.orgId ?? session.org,
        name: name.value.trim(),
        version: version.value.trim(),
        ...(team.value.trim() ? { teamName: team.value.trim() } : {}),
        ...(description.value.trim() ? { description: description.value.trim() } : {}),
        spec: spec.value,
      };
      submit.disabled = true;
      replace(outcome, h('p', { class: 'loading' }, 'Sending…'));
      try {
        const record = existing ? await ragApiClient.updateApi(session.token, existing.apiId, body) : await ragApiClient.registerApi(session.token, body);
        const status = h('div', { id: 'registered-status' }, statusLine(record.indexing));
        replace(outcome, h('div', { class: 'success' },
          h('p', {}, `${existing ? 'Updated' : 'Registered'} `, h('a', { href: `#/apis/${record.apiId}` }, `${record.name} v${record.version}`), ` in ${record.orgId}. Indexing runs in the background:`),
          status));
        ctx.onLeave(watchStatus(() => ragApiClient.getIndexingStatus(session.token, record.apiId), (next) => replace(status, statusLine(next))));
      } catch (error) {
        replace(outcome, errorBox(error, existing ? 'Update refused' : 'Registration refused'));
      } finally {
        submit.disabled = false;
      }
    } },
    field('Name', name),
    field('Version', version),
    field('Team', team, 'optional'),
    field('Description', description, 'optional; the spec\'s own description is indexed too'),
    field('Spec file', file),
    field('Spec', spec, existing ? 'the whole spec again (JSON or YAML)' : 'JSON or YAML'),
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
