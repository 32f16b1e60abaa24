import { createHmac } from 'node:crypto';
import {
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  UnprocessableEntityException,
} from '@nestjs/common';
import type { AiConfig } from '#config';
import { PeriodicJobs } from '#database';
import type { FeedbackErased, FeedbackReport } from '#contracts';
import { AI_CONFIG } from '../ai.constants.js';
import { EmbeddingModelsService } from '../embedding-models/embedding-models.service.js';
import { QueryVectors } from '../embedding-models/query-vectors.js';
import { needText } from '../ranking/query-normalizer.js';
import { round } from '../ranking/rounding.js';
import { searchIdTime } from '../ranking/search-id.js';
import type { InternalFeedbackDto } from '#dtos';
import { FeedbackRepository, type LoggedSearch } from './feedback.repository.js';
import { NeedMatchings } from './need-matchings.service.js';

/** How often searches and signals past their retention are forgotten (by one replica at a time). */
const PURGE_INTERVAL_MS = 3_600_000;

/**
 * A search's log row is written after its answer has gone out: feedback that another AI replica
 * receives at once (an agent's next MCP call) can arrive before the row commits. Feedback naming a
 * search made moments ago (its UUIDv7 `searchId` says when) that is not logged yet reads the log
 * again after each of these pauses before it is refused: 750 ms in all. Searches themselves wait
 * for nothing.
 */
export const SEARCH_LOG_RETRY_MS = [50, 100, 200, 400];
/** How recent a search must be for its missing row to be waited for: an older one is not coming. */
const SEARCH_LOG_PENDING_MS = 10_000;

/**
 * Learning from what people pick: logs each search under its `searchId`, records the signals that
 * name one (who gave it as a keyed hash only, the need as the search's query and vector), and
 * shows or erases an org's signals. Search reads them back through `UsageLearning`.
 */
@Injectable()
export class FeedbackService implements OnApplicationBootstrap {
  private readonly logger = new Logger(FeedbackService.name);
  /** Search log writes not yet committed: feedback on a search that quick waits for its row. */
  private readonly pendingLogs = new Map<string, Promise<void>>();

  constructor(
    private readonly repository: FeedbackRepository,
    private readonly models: EmbeddingModelsService,
    private readonly queryVectors: QueryVectors,
    private readonly jobs: PeriodicJobs,
    private readonly matchings: NeedMatchings,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  /** Searches past the feedback window, and signals past their retention, are purged hourly: the log holds a week of searches, not half a year's. */
  onApplicationBootstrap(): void {
    this.jobs.schedule({
      name: 'feedback-purge',
      intervalMs: PURGE_INTERVAL_MS,
      runAtStart: true,
      run: () => this.repository.purge(this.config.feedback),
      onError: (error) => this.logger.warn(`Purging old searches and feedback failed: ${error.message}`),
    });
  }

  /** Logs a search without holding up its answer; a failed write costs only the feedback on it. */
  logSearch(search: LoggedSearch): void {
    const write = this.repository
      .logSearch(search)
      .catch((error: Error) => this.logger.warn(`Search ${search.id} was not logged, so it cannot be given feedback: ${error.message}`))
      .finally(() => this.pendingLogs.delete(search.id));
    this.pendingLogs.set(search.id, write);
  }

  async record(request: InternalFeedbackDto): Promise<void> {
    // Opening an API is a sign it looked right; it says nothing against it.
    if (request.signal === 'opened' && !request.helpful)
      throw new BadRequestException(['an opened signal is helpful: true (use a vote to say it was not what you needed)']);
    const { windowDays } = this.config.feedback;
    const search = await this.loggedSearch(request.searchId, windowDays);
    if (!search || search.expired)
      throw new NotFoundException(
        `Search "${request.searchId}" is unknown or older than ${windowDays} days (FEEDBACK_WINDOW_DAYS): search again and give feedback on that answer`,
      );
    if (!request.orgIds.includes(search.orgId)) throw new ForbiddenException(`Search "${request.searchId}" was made in an org you are not a member of`);
    const need = needText(search.query);
    if (!need) throw new UnprocessableEntityException('That search had no query (it browsed the catalogue): feedback needs the need it answers');
    if (!(await this.repository.apiInOrg(request.apiId, search.orgId))) throw new NotFoundException(`API "${request.apiId}" is not in the search's org`);
    if (request.operation && !(await this.repository.hasOperation(request.apiId, request.operation))) {
      throw new NotFoundException(`API "${request.apiId}" has no operation ${request.operation.method} ${request.operation.path}`);
    }
    const model = await this.models.serving();
    const embedding = await this.queryVectors.of(model, need);
    // A need of no words ("???") has a vector of no direction: nothing to compare later needs with.
    if (!embedding.some((value) => value !== 0)) throw new UnprocessableEntityException("That search's query has no words to learn from");
    // Measured now, so that paraphrases can match it; before the model's first fit is ready (it
    // starts now, in the background: a vote does not wait seconds for it), by that fit.
    const matching = this.matchings.peek(model.modelId);
    await this.repository.record({
      orgId: search.orgId,
      person: this.personHash(request.person),
      searchId: search.id,
      apiId: request.apiId,
      method: request.operation?.method ?? '',
      path: request.operation?.path ?? '',
      helpful: request.helpful,
      signal: request.signal ?? 'vote',
      query: search.query,
      shown: search.shown,
      need,
      model: model.modelId,
      embedding,
      ...(matching ? { needBackground: this.matchings.background(matching, embedding), needMatching: matching.version } : {}),
    });
  }

  /** The search's log row, waited for while it may still be on its way (this replica's write, or another's). */
  private async loggedSearch(searchId: string, windowDays: number) {
    await this.pendingLogs.get(searchId);
    let search = await this.repository.search(searchId, windowDays);
    const madeAt = searchIdTime(searchId);
    for (const pause of SEARCH_LOG_RETRY_MS) {
      if (search || madeAt === undefined || Date.now() - madeAt > SEARCH_LOG_PENDING_MS) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      search = await this.repository.search(searchId, windowDays);
    }
    return search;
  }

  async report(orgId: string): Promise<FeedbackReport> {
    const { retentionDays, halfLifeDays } = this.config.feedback;
    const model = await this.models.serving();
    const matching = this.matchings.peek(model.modelId);
    const learning: FeedbackReport['learning'] = matching
      ? {
          model: model.modelId,
          matches: matching.paraphrases ? 'paraphrases' : 'same need',
          threshold: round(matching.threshold),
          recall: round(matching.recall),
          falseMatchRate: round(matching.falseMatchRate, 4),
          ...(matching.reason ? { reason: matching.reason } : {}),
        }
      : { model: model.modelId, matches: 'same need', reason: "the model's need matching is being fitted: until then votes count for the same need only" };
    return { orgId, retentionDays, halfLifeDays, learning, ...(await this.repository.report(orgId, retentionDays)) };
  }

  async erase(orgId: string, apiId?: string): Promise<FeedbackErased> {
    return { orgId, ...(apiId ? { apiId } : {}), signals: await this.repository.erase(orgId, apiId) };
  }

  /** A person as stored: the same person gives the same hash, which says nothing of who they are without the key. */
  private personHash(person: string): string {
    return createHmac('sha256', this.config.feedback.identityKey).update(person).digest('hex').slice(0, 32);
  }
}
