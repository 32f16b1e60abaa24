import { ragApiClient } from './api-client.js';
import { errorBox } from './components.js';
import { h, handler, replace } from './dom.js';

/** Long enough for the new tab or the download to have read the Blob. */
const BLOB_LIFETIME_MS = 60_000;

/**
 * "View spec" and "Download spec" for an API's registered spec. The route needs the bearer token,
 * so a plain link cannot fetch it: the text is fetched here and handed over as a Blob URL.
 * Failures are shown in `message`. `version`: that version's spec (absent: the recommended one's).
 */
export function specActions(token: string, apiId: string, message: HTMLElement, version?: string): HTMLElement[] {
  const view = h(
    'button',
    {
      type: 'button',
      id: 'view-spec',
      onclick: handler(async () => {
        // Opened before the fetch, while the click still allows a new tab (popup blockers).
        const tab = window.open('', '_blank');
        try {
          const spec = await ragApiClient.getSpec(token, apiId, { version });
          // As plain text: the browser shows it, never renders it (and YAML would download instead).
          const url = blobUrl(spec.text, 'text/plain;charset=utf-8');
          if (tab) {
            tab.opener = null;
            tab.location.href = url;
          } else {
            window.open(url, '_blank', 'noopener');
          }
        } catch (error) {
          tab?.close();
          replace(message, errorBox(error, 'Could not load the spec'));
        }
      }),
    },
    'View spec',
  );
  const download = h(
    'button',
    {
      type: 'button',
      id: 'download-spec',
      onclick: handler(async () => {
        try {
          const spec = await ragApiClient.getSpec(token, apiId, { download: true, version });
          const link = h('a', { href: blobUrl(spec.text, spec.contentType), download: spec.fileName ?? 'spec', hidden: true });
          document.body.append(link);
          link.click();
          link.remove();
        } catch (error) {
          replace(message, errorBox(error, 'Download failed'));
        }
      }),
    },
    'Download spec',
  );
  return [view, download];
}

function blobUrl(text: string, type: string): string {
  const url = URL.createObjectURL(new Blob([text], { type }));
  window.setTimeout(() => URL.revokeObjectURL(url), BLOB_LIFETIME_MS);
  return url;
}
