import { BadRequestException, Injectable } from '@nestjs/common';
import { NOTIFICATION_LIMITS, type NotificationFeed, type WatchState } from '#contracts';
import { assertOrgMember } from '../auth/org-access.js';
import type { Caller } from '../auth/caller.js';
import { ConsumersRepository } from '../consumers/consumers.repository.js';
import { toPlatformEvent } from '../events/domain-event.js';
import type { NotificationQueryDto } from './notifications.dto.js';
import { NotificationsRepository } from './notifications.repository.js';

/** APIs a person follows, in the feed at most (the newest watches first). */
const FOLLOWED_MAX = 1000;

/** What a person is told in the product: the events of the APIs they watch and of those their services (or teams) use. */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly consumers: ConsumersRepository,
  ) {}

  async watchState(caller: Caller, apiId: string): Promise<WatchState> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    return { apiId: api.id, watching: await this.notifications.watching(api.id, caller.sub) };
  }

  async watch(caller: Caller, apiId: string, watching: boolean): Promise<WatchState> {
    const api = await this.consumers.visibleApi(caller.orgs, apiId);
    if (watching) await this.notifications.watch(api.orgId, api.id, caller.sub);
    else await this.notifications.unwatch(api.id, caller.sub);
    return { apiId: api.id, watching };
  }

  async feed(caller: Caller, query: NotificationQueryDto): Promise<NotificationFeed> {
    if (query.orgId) assertOrgMember(caller, query.orgId);
    const orgs = query.orgId ? [query.orgId] : caller.orgs;
    if (orgs.length === 0) return { items: [] };
    const [watched, consumed] = await Promise.all([
      this.notifications.watchedBy(orgs, caller.sub, FOLLOWED_MAX),
      this.consumers.consumedBy(orgs, caller.sub, caller.teams ?? []),
    ]);
    let beforeSeq: string | undefined;
    if (query.before) {
      beforeSeq = await this.notifications.seqOf(orgs, query.before);
      if (beforeSeq === undefined) throw new BadRequestException(`before: no event "${query.before}" in your orgs`);
    }
    const limit = query.limit ?? NOTIFICATION_LIMITS.feedPageDefault;
    const rows = await this.notifications.events(orgs, [...new Set([...watched, ...consumed])], beforeSeq, limit + 1);
    const watching = new Set(watched);
    const consuming = new Set(consumed);
    const items = rows.slice(0, limit).map((row) => ({
      ...toPlatformEvent(row),
      reasons: [...(watching.has(row.apiId ?? '') ? ['watching' as const] : []), ...(consuming.has(row.apiId ?? '') ? ['consumer' as const] : [])],
    }));
    return { items, ...(rows.length > limit ? { nextBefore: items.at(-1)!.eventId } : {}) };
  }
}
