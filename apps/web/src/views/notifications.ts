import type { EventData, EventType, NotificationFeed, PlatformEvent } from '../../../../libs/contracts/src/index.js';
import { ragApiClient } from '../api-client.js';
import { errorBox, versionLabel } from '../components.js';
import { consumersCount } from '../consumer-parts.js';
import type { ViewContext } from '../context.js';
import { formatDate, h, handler, replace } from '../dom.js';

type FeedItem = NotificationFeed['items'][number];

/** Each type's name in a sentence's words. */
const TYPE_TITLES: Record<EventType, string> = {
  'api.created': 'API created',
  'api.deleted': 'API deleted',
  'api.version.created': 'Version added',
  'api.version.revised': 'Version revised',
  'api.version.deleted': 'Version deleted',
  'api.breaking_change': 'Breaking change',
  'api.lifecycle.changed': 'Stage changed',
  'api.sunset.approaching': 'Sunset approaching',
  'api.indexing.failed': 'Indexing failed',
  'api.import.failed': 'Import failed',
  'api.consumer.added': 'Consumer added',
};

const v = (version: string | undefined) => (version ? versionLabel(version) : 'the recommended version');

/** What happened, in one line, from what the event's type carries. */
export function eventSummary(event: PlatformEvent): string {
  // Written by the server for its type; read with care all the same (a type this page does not know yet).
  const data = (event.data ?? {}) as Partial<EventData[EventType]> & Record<string, unknown>;
  switch (event.type) {
    case 'api.created': {
      const d = data as Partial<EventData['api.created']>;
      return `Registered at ${v(d.version)} (${d.lifecycle ?? 'production'}).`;
    }
    case 'api.deleted': {
      const d = data as Partial<EventData['api.deleted']>;
      const used = d.consumersTotal ?? d.consumers?.length ?? 0;
      return `Deleted: it left the catalogue and search${used ? `; ${consumersCount(used)} used it` : ''}.`;
    }
    case 'api.version.deleted': {
      const d = data as Partial<EventData['api.version.deleted']>;
      const used = d.consumersTotal ?? d.consumers?.length ?? 0;
      return `${v(d.version)} deleted${used ? `; ${consumersCount(used)} used it` : ''}.`;
    }
    case 'api.version.created': {
      const d = data as Partial<EventData['api.version.created']>;
      return `${v(d.version)} added (${d.lifecycle ?? 'production'}).`;
    }
    case 'api.version.revised': {
      const d = data as Partial<EventData['api.version.revised']>;
      return `${v(d.version)} has a new spec (revision ${d.revision ?? '?'}).`;
    }
    case 'api.breaking_change': {
      const d = data as Partial<EventData['api.breaking_change']>;
      const breaking = d.counts?.breaking ?? d.changes?.length ?? 0;
      return `${v(d.version)}: ${breaking} breaking change${breaking === 1 ? '' : 's'} from ${v(d.from)}; ${consumersCount(d.affected?.length ?? 0)} affected, ${d.mayBeAffected?.length ?? 0} may be.`;
    }
    case 'api.lifecycle.changed': {
      const d = data as Partial<EventData['api.lifecycle.changed']>;
      return `${v(d.version)} moved from ${d.from ?? '?'} to ${d.to ?? '?'}${d.sunsetDate ? `, sunset ${d.sunsetDate}` : ''}; ${consumersCount(d.consumersTotal ?? d.consumers?.length ?? 0)} told.`;
    }
    case 'api.sunset.approaching': {
      const d = data as Partial<EventData['api.sunset.approaching']>;
      return `${v(d.version)} goes on ${d.sunsetDate ?? '?'} (${d.daysLeft ?? '?'} days left); ${consumersCount(d.consumersTotal ?? d.consumers?.length ?? 0)} use it.`;
    }
    case 'api.indexing.failed': {
      const d = data as Partial<EventData['api.indexing.failed']>;
      return `Indexing ${v(d.version)} revision ${d.revision ?? '?'} failed: ${d.error ?? 'no reason given'}`;
    }
    case 'api.import.failed': {
      const d = data as Partial<EventData['api.import.failed']>;
      return `Importing from ${d.source ?? '?'} failed: ${d.error ?? 'no reason given'}`;
    }
    case 'api.consumer.added': {
      const d = data as Partial<EventData['api.consumer.added']>;
      return `${d.name ?? 'A consumer'}${d.teamName ? ` (team ${d.teamName})` : ''} uses ${v(d.version)} (${d.source ?? 'declared'}).`;
    }
    default:
      return String(event.type);
  }
}

function eventItem(event: FeedItem): HTMLElement {
  const reasons = event.reasons ?? [];
  return h(
    'li',
    { class: `notification notification-${event.type.replace(/[^a-z0-9]+/g, '-')}`, 'data-type': event.type, 'data-event-id': event.eventId },
    h(
      'div',
      { class: 'notification-head' },
      h('span', { class: 'event-type', title: event.type }, TYPE_TITLES[event.type] ?? event.type),
      event.type === 'api.deleted'
        ? h('strong', { class: 'event-api' }, event.api.name)
        : h('a', { class: 'event-api', href: `#/apis/${event.api.apiId}` }, event.api.name),
      h('time', { class: 'muted', dateTime: event.timestamp }, formatDate(event.timestamp)),
    ),
    h('p', { class: 'event-summary' }, eventSummary(event)),
    reasons.length
      ? h(
          'p',
          { class: 'event-reasons muted' },
          reasons.map((reason) =>
            h(
              'span',
              {
                class: `reason reason-${reason}`,
                'data-reason': reason,
                title: reason === 'watching' ? 'You watch this API' : 'A service you declared, or one of your team, uses this API',
              },
              reason === 'watching' ? 'you watch it' : 'you use it',
            ),
          ),
        )
      : null,
  );
}

/** The caller's feed (#/notifications): events of the APIs they watch and their teams use, newest first, older ones on demand. */
export async function notificationsView(ctx: ViewContext): Promise<void> {
  const { session } = ctx;
  const list = h('ul', { class: 'notifications', id: 'notifications' });
  const more = h('div', { class: 'pager', 'aria-live': 'polite' });
  replace(ctx.main, h('h1', {}, 'Notifications'), h('p', { class: 'muted' }, 'What happened to the APIs you watch and the APIs your team uses.'), list, more);
  const page = async (before?: string) => {
    replace(more, h('p', { class: 'loading' }, 'Loading…'));
    let feed: NotificationFeed;
    try {
      feed = await ragApiClient.notifications(session.token, { orgId: session.org, before });
    } catch (error) {
      replace(more, errorBox(error, 'Could not load your notifications'));
      return;
    }
    if (!ctx.isCurrent()) return;
    list.append(...feed.items.map(eventItem));
    if (!before && feed.items.length === 0) {
      replace(
        more,
        h('p', { class: 'empty' }, 'Nothing yet. Watch an API (the Watch button on its page), or add your service to the consumers of the APIs it uses.'),
      );
      return;
    }
    const older = feed.nextBefore;
    replace(
      more,
      older
        ? h(
            'button',
            {
              type: 'button',
              id: 'notifications-older',
              onclick: handler(async () => {
                await page(older);
                // The button was replaced: keep the keyboard where paging goes on.
                document.getElementById('notifications-older')?.focus();
              }),
            },
            'Older',
          )
        : h('p', { class: 'muted' }, 'No older notifications.'),
    );
  };
  await page();
}
