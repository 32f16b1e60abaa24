import { HttpException, Inject, Injectable } from '@nestjs/common';
import {
  AI_ROUTES,
  type AnyRoute,
  type ApiKindInfo,
  type ApiEndpoint,
  type ApiListResponse,
  type ApiOperationDetailResponse,
  type ApiOperationsResponse,
  type ApiRecord,
  type ChangeReportResponse,
  encodeOrgList,
  type FeedbackRequest,
  type InternalFeedbackRequest,
  type LifecycleStage,
  InternalHeader,
  type OperationPartNames,
  type OperationSelector,
  parseLabelSelector,
  type Problem,
  type RouteResponse,
  SEARCH_LIMITS,
  type SearchFilters,
  type SearchResponse,
} from '#contracts';
import { SPEC_FORMATS, type SpecFormats } from '#api-specs';
import type { Caller } from '../auth/caller.js';
import { assertOrgMember } from '../auth/org-access.js';
import { type AiAnswer, AiClient, type AiRequest, AiUnavailableError } from '../ai-client/ai-client.js';
import type { RegisteredSpec } from '../registry/registered-spec.js';
import { ApiVersionsService } from '../registry/api-versions.service.js';
import { RegistryService } from '../registry/registry.service.js';
import { ConsumersService } from '../registry/consumers.service.js';
import { ImplicitFeedback } from './implicit-feedback.js';

/** A tool call's failure in words for the model: it becomes a result with `isError`, never a stack trace. */
export class ToolError extends Error {
  override name = 'ToolError';

  /** The HTTP status the REST API gives for the same refusal (404 for what the caller cannot see). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface SearchArgs {
  query: string;
  orgId?: string;
  filters?: SearchFilters;
  maxResults?: number;
  maxEndpoints?: number;
}

export interface ListArgs {
  orgId?: string;
  teamName?: string;
  kind?: string;
  tag?: string;
  /** `key:value`: only APIs carrying this label (the value in any case). */
  label?: string;
  /** Only APIs whose recommended version is at this stage. */
  lifecycle?: LifecycleStage;
  page: number;
}

/** `rate_result`'s vote: always a `vote`, never an implicit signal. */
export type RateArgs = Omit<FeedbackRequest, 'signal'>;

/** A recorded vote, with the need it was about while the caller's search is remembered. */
export interface RatedResult extends RateArgs {
  signal: 'vote';
  query?: string;
}

/** An API as `get_api` tells it: its record, and what its indexed spec says (or its registered operations while it is not indexed). */
export interface ApiView {
  record: ApiRecord;
  overview?: ApiOperationsResponse;
  operations: ApiEndpoint[];
}

/** One operation with what calling it needs: the API's servers and security schemes, and an example call. */
export interface OperationView {
  api: { apiId: string; name: string; version: string };
  overview: ApiOperationsResponse;
  detail: ApiOperationDetailResponse;
  example: string;
  /** What its kind calls an operation's parts (its format plugin's `parts`). */
  parts: OperationPartNames;
}

/** The parts' names for a kind no format of this gateway reads (an API indexed by a newer AI app): what most APIs call them. */
export const GENERIC_PART_NAMES: OperationPartNames = { inputs: 'Parameters', body: 'Request body', responses: 'Responses' };

/** APIs a page of `list_apis` holds. */
export const LIST_PAGE_SIZE = 20;

/**
 * What the agent tools (`/mcp`) do, as the caller: the same registry and AI-app calls as the
 * REST routes, with the same org scoping and roles, so a tool sees exactly what the caller's
 * token lets it see over REST.
 */
@Injectable()
export class AgentToolsService {
  constructor(
    private readonly ai: AiClient,
    private readonly registry: RegistryService,
    private readonly versions: ApiVersionsService,
    private readonly feedback: ImplicitFeedback,
    private readonly consumers: ConsumersService,
    @Inject(SPEC_FORMATS) private readonly formats: SpecFormats,
  ) {}

  async search(caller: Caller, args: SearchArgs, requestId?: string): Promise<SearchResponse & { orgId: string }> {
    const orgId = orgOf(caller, args.orgId);
    const body = { query: args.query, orgId, maxResults: args.maxResults, maxEndpoints: args.maxEndpoints, filters: args.filters };
    const answer = { ...(await this.aiJson(AI_ROUTES.search, { body, requestId })), orgId };
    await this.feedback.searched(caller, { ...answer, query: args.query });
    return answer;
  }

  async api(caller: Caller, apiId: string, requestId?: string): Promise<ApiView> {
    const record = await this.asTool(() => this.registry.get(caller, apiId));
    const overview = await this.overview(caller, record.apiId, requestId).catch((error: unknown) => {
      // Not indexed yet: its registered spec still lists the operations.
      if (error instanceof ToolError && /not been indexed yet|being re-indexed/.test(error.message)) return undefined;
      throw error;
    });
    const operations = overview?.operations ?? (await this.asTool(() => this.registry.endpoints(caller, record.apiId))).items;
    void this.feedback.opened(caller, record.apiId, undefined, requestId);
    void this.consumers.observe(caller, record.apiId, undefined);
    return { record, ...(overview ? { overview } : {}), operations };
  }

  async operation(caller: Caller, apiId: string, selector: OperationSelector, requestId?: string): Promise<OperationView> {
    // The registry row alone: its indexing status would cost one more call to the AI app.
    const { id, name, version } = await this.asTool(() => this.registry.findVisible(caller, apiId));
    const [overview, detail] = await Promise.all([
      this.overview(caller, id, requestId, { withOperations: false }),
      this.aiJson(AI_ROUTES.operationDetail, { params: { apiId: id }, query: selector, requestId, headers: orgHeaders(caller) }),
    ]);
    void this.feedback.opened(caller, id, { method: detail.method, path: detail.path }, requestId);
    void this.consumers.observe(caller, id, undefined, { method: detail.method, path: detail.path });
    const format = this.formats.byKind(overview.kind);
    const example = format?.callExample(overview, detail) ?? '';
    return { api: { apiId: id, name, version }, overview, detail, example, parts: format?.parts ?? GENERIC_PART_NAMES };
  }

  async list(caller: Caller, args: ListArgs, requestId?: string): Promise<ApiListResponse> {
    const label = args.label === undefined ? undefined : parseLabelSelector(args.label);
    if (label && 'problem' in label) throw new ToolError(label.problem, 400);
    if (!args.tag) {
      return this.asTool(() =>
        this.registry.list(caller, {
          orgId: args.orgId,
          teamName: args.teamName,
          kind: args.kind,
          ...(args.label ? { label: [args.label] } : {}),
          ...(args.lifecycle ? { lifecycle: [args.lifecycle] } : {}),
          page: args.page,
          pageSize: LIST_PAGE_SIZE,
        }),
      );
    }
    // Tags belong to operations, which only the index knows: browse the index, then read the records.
    const orgId = orgOf(caller, args.orgId);
    const filters: SearchFilters = {
      tags: [args.tag],
      ...(args.teamName ? { teamNames: [args.teamName] } : {}),
      ...(args.kind ? { kinds: [args.kind] } : {}),
      ...(label ? { labels: { [label.key]: label.value } } : {}),
      ...(args.lifecycle ? { lifecycle: [args.lifecycle] } : {}),
    };
    const browsed = await this.aiJson(AI_ROUTES.search, { body: { query: '', orgId, filters, maxResults: SEARCH_LIMITS.maxResults.max }, requestId });
    const ids = browsed.results.map((card) => card.apiId).slice((args.page - 1) * LIST_PAGE_SIZE, args.page * LIST_PAGE_SIZE);
    return { items: await this.asTool(() => this.registry.records(caller, ids)), total: browsed.results.length };
  }

  /**
   * An agent's vote on a search's result, sent as `POST /api-management/ai/feedback` sends it: the
   * AI app checks that the search is of one of the caller's orgs, the API of its org and the
   * operation of the API, and a vote replaces the `opened` signal the agent's calls gave.
   */
  async rate(caller: Caller, args: RateArgs, requestId?: string): Promise<RatedResult> {
    const operation = args.operation ? { method: args.operation.method.toUpperCase(), path: args.operation.path } : undefined;
    const vote = { searchId: args.searchId, apiId: args.apiId, ...(operation ? { operation } : {}), helpful: args.helpful, signal: 'vote' as const };
    const body: InternalFeedbackRequest = { ...vote, person: caller.sub, orgIds: caller.orgs };
    await this.aiCall(AI_ROUTES.feedback, { body, requestId });
    const query = await this.feedback.queryOf(caller, args.searchId);
    return { ...vote, ...(query !== undefined ? { query } : {}) };
  }

  /** The change report between two versions (or `version@revision`s) of an API; `to` is the recommended version when absent. */
  compare(caller: Caller, apiId: string, from: string, to?: string): Promise<ChangeReportResponse> {
    return this.asTool(() => this.versions.changes(caller, apiId, { from, ...(to ? { to } : {}) }));
  }

  spec(caller: Caller, apiId: string): Promise<RegisteredSpec> {
    return this.asTool(() => this.registry.spec(caller, apiId));
  }

  /** The kinds of API this gateway reads (its `SPEC_FORMATS`), for the tools' filters and descriptions. */
  get kinds(): readonly ApiKindInfo[] {
    return this.formats.all;
  }

  /**
   * What the API's indexed spec says of it; `withOperations: false` leaves out its list of
   * operations (up to 5,000), which one operation's call does not need.
   */
  private overview(caller: Caller, apiId: string, requestId?: string, { withOperations = true } = {}): Promise<ApiOperationsResponse> {
    const query = withOperations ? undefined : { operations: false };
    return this.aiJson(AI_ROUTES.apiOperations, { params: { apiId }, query, requestId, headers: orgHeaders(caller) });
  }

  /** The AI app's answer as the route declares it; its problem's detail as a `ToolError` when it refused. */
  private async aiJson<R extends AnyRoute>(route: R, request: AiRequest<R>): Promise<RouteResponse<R>> {
    return (await this.aiCall(route, request)).json();
  }

  /** The AI app's answer; its problem's detail as a `ToolError` when it refused. */
  private async aiCall<R extends AnyRoute>(route: R, request: AiRequest<R>): Promise<AiAnswer<RouteResponse<R>>> {
    const answer = await this.asTool(() => this.ai.request(route, request));
    if (answer.status >= 400) throw new ToolError(problemText(answer), answer.status);
    return answer;
  }

  /** Registry and gateway refusals (404, 403, 400) in words, as the REST API gives them. */
  private async asTool<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AiUnavailableError) throw new ToolError(`${error.message} (in about ${error.retryAfterSeconds} s)`, 503);
      if (error instanceof HttpException) throw new ToolError(exceptionText(error), error.getStatus());
      throw error;
    }
  }
}

/** The org a call is about: the one named (if the caller belongs to it), or the caller's only org. */
function orgOf(caller: Caller, orgId: string | undefined): string {
  if (orgId !== undefined) {
    try {
      assertOrgMember(caller, orgId);
    } catch (error) {
      throw new ToolError(exceptionText(error as HttpException));
    }
    return orgId;
  }
  if (caller.orgs.length === 1) return caller.orgs[0];
  if (caller.orgs.length === 0) throw new ToolError('Your token lists no orgs: there is nothing to search');
  throw new ToolError(`Your token lists several orgs (${caller.orgs.join(', ')}): name one in orgId`);
}

function orgHeaders(caller: Caller): Record<string, string> {
  return { [InternalHeader.CallerOrgs]: encodeOrgList(caller.orgs) };
}

function problemText(answer: AiAnswer): string {
  let detail = answer.body.slice(0, 500);
  try {
    const problem = JSON.parse(answer.body) as Problem;
    detail = problem.errors?.length ? problem.errors.join('; ') : (problem.detail ?? problem.title);
  } catch {
    // not JSON: the start of the text says enough
  }
  return answer.retryAfter ? `${detail} (try again in ${answer.retryAfter} s)` : detail;
}

function exceptionText(error: HttpException): string {
  const response = error.getResponse() as string | { message?: string | string[] };
  const message = typeof response === 'string' ? response : response.message;
  return Array.isArray(message) ? message.join('; ') : (message ?? error.message);
}
