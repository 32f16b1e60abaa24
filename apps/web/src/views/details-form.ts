import type { ApiDetailsPatch, ApiRecord } from '../../../../libs/contracts/src/index.js';
import { REGISTRATION_LIMITS } from '../../../../libs/contracts/src/api-record.js';
import { ragApiClient } from '../api-client.js';
import { errorBox } from '../components.js';
import { h, handler, replace } from '../dom.js';
import { labelLines, parseLabelLines } from '../labels.js';

/**
 * A publisher's form for an API's team, description and labels (`PATCH /api-management/apis/:apiId`):
 * no spec is sent and no revision of it is made. Only what was changed is sent; a field emptied
 * clears it. `onSaved` redraws the page.
 */
export function detailsForm(token: string, api: ApiRecord, onSaved: () => void): HTMLElement {
  const message = h('div', { id: 'details-message', class: 'details-message', 'aria-live': 'polite' });
  const team = h('input', {
    id: 'details-team',
    name: 'teamName',
    value: api.teamName ?? '',
    maxLength: REGISTRATION_LIMITS.teamNameMaxChars,
    autocomplete: 'off',
  });
  const description = h('textarea', {
    id: 'details-description',
    name: 'description',
    rows: 3,
    maxLength: REGISTRATION_LIMITS.descriptionMaxChars,
    value: api.description ?? '',
  });
  const labels = h('textarea', {
    id: 'details-labels',
    name: 'labels',
    rows: 3,
    spellcheck: false,
    autocomplete: 'off',
    value: labelLines(api.labels),
    placeholder: 'team=payments\nenv=prod',
    'aria-describedby': 'details-labels-hint',
  });
  const save = h('button', { type: 'submit', class: 'small', id: 'details-save' }, 'Save details');
  const form = h(
    'form',
    {
      id: 'details-form',
      class: 'details-form',
      'aria-label': `Details of ${api.name}`,
      onsubmit: handler(async (event: Event) => {
        event.preventDefault();
        const parsed = parseLabelLines(labels.value);
        if ('error' in parsed) {
          replace(message, h('p', { class: 'error-text', role: 'alert' }, parsed.error));
          labels.focus();
          return;
        }
        const patch: ApiDetailsPatch = {
          ...(team.value.trim() !== (api.teamName ?? '') ? { teamName: team.value.trim() || null } : {}),
          ...(description.value.trim() !== (api.description ?? '') ? { description: description.value.trim() || null } : {}),
          ...(labelLines(parsed.labels) !== labelLines(api.labels) ? { labels: parsed.labels } : {}),
        };
        if (Object.keys(patch).length === 0) {
          replace(message, h('p', { class: 'muted' }, 'Nothing changed.'));
          return;
        }
        save.disabled = true;
        try {
          await ragApiClient.patchApi(token, api.apiId, patch);
          onSaved();
        } catch (error) {
          replace(message, errorBox(error, 'Details not changed'));
        } finally {
          save.disabled = false;
        }
      }),
    },
    h('label', { class: 'field' }, h('span', {}, 'Team'), team),
    h('label', { class: 'field' }, h('span', {}, 'Description'), description),
    h('label', { class: 'field' }, h('span', {}, 'Labels'), labels),
    h(
      'p',
      { id: 'details-labels-hint', class: 'muted' },
      'One key=value a line. The spec is not sent again: search shows the change once the API is indexed again, which embeds only what changed.',
    ),
    h('div', { class: 'actions' }, save),
    message,
  );
  return h('details', { id: 'edit-details', class: 'edit-details' }, h('summary', {}, 'Edit team, description and labels'), form);
}
