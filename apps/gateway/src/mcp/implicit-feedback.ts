import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from '#config';
import { AI_ROUTES, type InternalFeedbackRequest, type SearchResponse } from '#contracts';
import type { Caller } from '../auth/caller.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { AiClient, AiUnavailableError } from '../ai-client/ai-client.js';
import { SHARED_REDIS } from '../shared-state/shared-state.module.js';

/**
 * How long after a search an agent's opening one of its APIs counts as choosing it: an agent acts
 * on a search within its task, seconds to minutes later; past that, the same API opened is more
 * likely a new task than the search's answer, and would teach ranking the wrong need.
 */
export const IMPLICIT_SIGNAL_WINDOW_MS = 10 * 60_000;
/** Searches remembered per agent: an agent opens what one of its last few searches returned. */
const SEARCHES_KEPT = 10;

type Operation = { method: string; path: string };

interface RecentSearch {
  searchId: string;
  orgId: string;
  /** The need searched, for the words of `rate_result`'s answer. */
  query?: string;
  apiIds: string[];
  /** When it was answered (ms since the epoch). */
  at: number;
}

/**
 * Implicit feedback from agents (`/mcp`): an agent that searched, then opened an API or operation
 * the search returned (`get_api`, `get_operation`), chose it. Each caller's recent searches are
 * kept in Redis (a short list per caller, expiring with the window), so an agent's calls may reach
 * any gateway replica; the AI app is told once per search, API and operation (a Redis key claims
 * each), in the background: a tool's answer never waits for the AI app nor fails with it. While
 * Redis is away, openings are not counted, which loses a few weak signals and nothing else.
 */
@Injectable()
export class ImplicitFeedback {
  private readonly logger = new Logger(ImplicitFeedback.name);
  private readonly prefix: string;

  constructor(
    private readonly ai: AiClient,
    @Inject(SHARED_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.prefix = `${config.redis.queuePrefix}:mcp-searches`;
  }

  /** Remembers which APIs a search answered the caller with (before the answer goes out: the caller's next call may reach another replica). */
  async searched(caller: Caller, answer: Pick<SearchResponse, 'searchId' | 'results'> & { orgId: string; query?: string }): Promise<void> {
    // An AI app without feedback names no search: nothing to attribute an opening to.
    if (!answer.searchId || answer.results.length === 0) return;
    const search: RecentSearch = {
      searchId: answer.searchId,
      orgId: answer.orgId,
      ...(answer.query !== undefined ? { query: answer.query } : {}),
      apiIds: [...new Set(answer.results.map((card) => card.apiId))],
      at: Date.now(),
    };
    const key = this.callerKey(caller);
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(search))
      .ltrim(key, 0, SEARCHES_KEPT - 1)
      .pexpire(key, IMPLICIT_SIGNAL_WINDOW_MS)
      .exec()
      .catch((error: Error) => this.logger.debug(`A search of ${caller.sub} was not remembered for implicit feedback: ${error.message}`));
  }

  /** The caller opened an API (or one of its operations): an `opened` signal for the newest recent search that returned it. */
  async opened(caller: Caller, apiId: string, operation?: Operation, requestId?: string): Promise<void> {
    try {
      const since = Date.now() - IMPLICIT_SIGNAL_WINDOW_MS;
      const search = (await this.recentSearches(caller)).find((kept) => kept.at > since && kept.apiIds.includes(apiId) && caller.orgs.includes(kept.orgId));
      if (!search) return;
      // Claimed before the call, on every replica at once: a second opening is the same choice.
      const choice = digest(JSON.stringify([apiId, operation?.method, operation?.path]));
      if ((await this.redis.set(`${this.prefix}:sent:${search.searchId}:${choice}`, '1', 'PX', IMPLICIT_SIGNAL_WINDOW_MS, 'NX')) !== 'OK') return;
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
    } catch (error) {
      this.failed(`Redis: ${(error as Error).message}`, true);
    }
  }

  /** The need of one of the caller's recent searches, while it is remembered (past the window, or while Redis is away, it is not). */
  async queryOf(caller: Caller, searchId: string): Promise<string | undefined> {
    try {
      return (await this.recentSearches(caller)).find((kept) => kept.searchId === searchId)?.query;
    } catch {
      return undefined;
    }
  }

  /** The caller's searches remembered in Redis, newest first. */
  private async recentSearches(caller: Caller): Promise<RecentSearch[]> {
    return (await this.redis.lrange(this.callerKey(caller), 0, SEARCHES_KEPT - 1)).map((entry) => JSON.parse(entry) as RecentSearch);
  }

  private callerKey(caller: Caller): string {
    return `${this.prefix}:${digest(caller.sub)}`;
  }

  private async send(body: InternalFeedbackRequest, requestId: string | undefined): Promise<void> {
    try {
      const answer = await this.ai.request(AI_ROUTES.feedback, { body, requestId });
      if (answer.status >= 300) {
        this.failed(`the AI app answered ${answer.status}: ${answer.body.slice(0, 200)}`, answer.status === 404 || answer.status === 503);
      }
    } catch (error) {
      this.failed((error as Error).message, error instanceof AiUnavailableError);
    }
  }

  /** A search forgotten by the AI app (404), an AI app busy or down, or Redis away is expected now and then; anything else is a fault to look at. */
  private failed(reason: string, expected: boolean): void {
    const message = `Implicit search feedback not recorded: ${reason}`;
    if (expected) this.logger.debug(message);
    else this.logger.warn(message);
  }
}

/** A short, key-safe name for a caller's subject or a choice. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
