import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { InternalFeedbackRequest, SearchResponse } from '#contracts';
import type { Caller } from '../auth/caller.js';
import { AiClient, AiUnavailableError } from '../proxy/ai-client.js';

/**
 * How long after a search an agent's opening one of its APIs counts as choosing it: an agent acts
 * on a search within its task, seconds to minutes later; past that, the same API opened is more
 * likely a new task than the search's answer, and would teach ranking the wrong need.
 */
export const IMPLICIT_SIGNAL_WINDOW_MS = 10 * 60_000;
/** Agents remembered at once: the least recently searching are forgotten first. */
const CALLERS_KEPT = 10_000;
/** Searches remembered per agent: an agent opens what one of its last few searches returned. */
const SEARCHES_KEPT = 10;

type Operation = { method: string; path: string };

interface RecentSearch {
  searchId: string;
  orgId: string;
  apiIds: Set<string>;
  at: number;
  /** (apiId, operation) pairs already signalled for this search. */
  sent: Set<string>;
}

/**
 * Implicit feedback from agents (`/mcp`): an agent that searched, then opened an API or operation
 * the search returned (`get_api`, `get_operation`), chose it. This remembers each caller's recent
 * searches in memory and tells the AI app once per search, API and operation, in the background:
 * a tool's answer never waits for it nor fails with it. A gateway restart forgets the searches,
 * which loses a few weak signals and nothing else.
 */
@Injectable()
export class ImplicitFeedback {
  private readonly logger = new Logger(ImplicitFeedback.name);
  /** Newest first, by the caller's `sub`. */
  private readonly searches = new LRUCache<string, RecentSearch[]>({ max: CALLERS_KEPT, ttl: IMPLICIT_SIGNAL_WINDOW_MS });

  constructor(private readonly ai: AiClient) {}

  /** Remembers which APIs a search answered the caller with. */
  searched(caller: Caller, answer: Pick<SearchResponse, 'searchId' | 'results'> & { orgId: string }): void {
    // An AI app without feedback names no search: nothing to attribute an opening to.
    if (!answer.searchId || answer.results.length === 0) return;
    const apiIds = new Set(answer.results.map((card) => card.apiId));
    const search: RecentSearch = { searchId: answer.searchId, orgId: answer.orgId, apiIds, at: Date.now(), sent: new Set() };
    const earlier = this.recent(caller).filter((kept) => kept.searchId !== search.searchId);
    this.searches.set(caller.sub, [search, ...earlier].slice(0, SEARCHES_KEPT));
  }

  /** The caller opened an API (or one of its operations): an `opened` signal for the newest recent search that returned it. */
  opened(caller: Caller, apiId: string, operation?: Operation, requestId?: string): void {
    const search = this.recent(caller).find((kept) => kept.apiIds.has(apiId) && caller.orgs.includes(kept.orgId));
    const key = JSON.stringify([apiId, operation?.method, operation?.path]);
    if (!search || search.sent.has(key)) return;
    // Marked before the call: a second opening while the first is on its way is the same choice.
    search.sent.add(key);
    const body: InternalFeedbackRequest = {
      searchId: search.searchId,
      apiId,
      ...(operation ? { operation } : {}),
      helpful: true,
      signal: 'opened',
      person: caller.sub,
      orgIds: caller.orgs,
    };
    void this.send(body, requestId);
  }

  /** The caller's searches still within the window, newest first. */
  private recent(caller: Caller): RecentSearch[] {
    const since = Date.now() - IMPLICIT_SIGNAL_WINDOW_MS;
    return (this.searches.get(caller.sub) ?? []).filter((search) => search.at > since);
  }

  private async send(body: InternalFeedbackRequest, requestId: string | undefined): Promise<void> {
    try {
      const answer = await this.ai.call('POST', '/feedback', { body, requestId });
      if (answer.status >= 300) {
        this.failed(`the AI app answered ${answer.status}: ${answer.body.slice(0, 200)}`, answer.status === 404 || answer.status === 503);
      }
    } catch (error) {
      this.failed((error as Error).message, error instanceof AiUnavailableError);
    }
  }

  /** A search forgotten by the AI app (404) or an AI app busy or down is expected now and then; anything else is a fault to look at. */
  private failed(reason: string, expected: boolean): void {
    const message = `Implicit search feedback not recorded: ${reason}`;
    if (expected) this.logger.debug(message);
    else this.logger.warn(message);
  }
}
