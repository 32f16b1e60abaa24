import {
  type ApiEndpointsResponse,
  ApiError,
  type ApiImportRequest,
  type ApiKindsResponse,
  type ApiListQuery,
  type ApiRecord,
  type ApiRegistration,
  type FeedbackErased,
  type FeedbackReport,
  type FeedbackRequest,
  GATEWAY_ROUTES,
  GatewayClient,
  type IndexingStatus,
  type Problem,
  type SearchRequest,
  type SearchResponse,
  type TreeImportRequest,
  type TreePlan,
} from '#contracts';

/** A registration whose spec may be any document object: the benchmarks' generated specs are typed `object`. */
export type RegisterBody = Omit<ApiRegistration, 'spec'> & { spec: string | object };

const RETRIES_WHEN_TOLD = 5;

/** A call that did not answer 2xx: the problem document the gateway sent, worded for a console. */
export class PlatformError extends ApiError {
  constructor(problem: Problem, retryAfterSeconds?: number) {
    super(problem, retryAfterSeconds, `${problem.status} ${problem.title}: ${problem.detail}`);
  }
}

/** Typed client of the gateway's public API, for the CLIs (start, import) and the benchmarks (eval, bench). */
export class PlatformClient extends GatewayClient {
  constructor(baseUrl: string, token: string) {
    // A long run waits, a few times, when told to (429, or 503 with Retry-After) rather than fail.
    super({ baseUrl, token, attempts: RETRIES_WHEN_TOLD });
  }

  registerApi(body: RegisterBody): Promise<ApiRecord> {
    return this.request(GATEWAY_ROUTES.registerApi, { body: body as ApiRegistration });
  }

  /** Replaces the spec of the recommended version, or of `version`. */
  updateApi(apiId: string, body: RegisterBody, version?: string): Promise<ApiRecord> {
    return this.request(GATEWAY_ROUTES.updateApi, { params: { apiId }, query: { version }, body: body as ApiRegistration });
  }

  importApi(body: ApiImportRequest): Promise<ApiRecord> {
    return this.request(GATEWAY_ROUTES.importApi, { body });
  }

  /** What importing a tree would do (`npm run import`); writes nothing. */
  planTree(body: TreeImportRequest): Promise<TreePlan> {
    return this.request(GATEWAY_ROUTES.planTreeImport, { body });
  }

  /** Writes what a tree's plan holds of the texts sent (and what needs none); deletes with `prune`. */
  applyTree(body: TreeImportRequest): Promise<TreePlan> {
    return this.request(GATEWAY_ROUTES.applyTreeImport, { body });
  }

  kinds(): Promise<ApiKindsResponse> {
    return this.request(GATEWAY_ROUTES.kinds, {});
  }

  deleteApi(apiId: string): Promise<void> {
    return this.request(GATEWAY_ROUTES.deleteApi, { params: { apiId } });
  }

  indexingStatus(apiId: string): Promise<IndexingStatus> {
    return this.request(GATEWAY_ROUTES.indexingStatus, { params: { apiId } });
  }

  endpoints(apiId: string): Promise<ApiEndpointsResponse> {
    return this.request(GATEWAY_ROUTES.endpoints, { params: { apiId } });
  }

  /** A search; its answer's `searchId` names it in `feedback`. */
  search(request: SearchRequest): Promise<SearchResponse> {
    return this.request(GATEWAY_ROUTES.search, { body: request });
  }

  /** What the token's person chose after a search (204): once per person, need and API. */
  feedback(request: FeedbackRequest): Promise<void> {
    return this.request(GATEWAY_ROUTES.feedback, { body: request });
  }

  /** The org's stored feedback (admin). */
  feedbackReport(orgId: string): Promise<FeedbackReport> {
    return this.request(GATEWAY_ROUTES.feedbackReport, { query: { orgId } });
  }

  /** Erases the org's feedback, or only one API's (admin). */
  eraseFeedback(orgId: string, apiId?: string): Promise<FeedbackErased> {
    return this.request(GATEWAY_ROUTES.eraseFeedback, { query: { orgId, apiId } });
  }

  /** Every API of an org (that passes `filters`, e.g. `{sourceTree}`), all pages. */
  async listAllApis(orgId: string, filters: Omit<ApiListQuery, 'orgId' | 'page' | 'pageSize'> = {}): Promise<ApiRecord[]> {
    const items: ApiRecord[] = [];
    for (let page = 1; ; page++) {
      const result = await this.request(GATEWAY_ROUTES.listApis, { query: { orgId, ...filters, page, pageSize: 100 } });
      items.push(...result.items);
      if (items.length >= result.total || result.items.length === 0) return items;
    }
  }

  /**
   * Polls the org's APIs until none is PENDING or IN_PROGRESS, reporting progress. A poll the
   * gateway answers busy (429, 503) is skipped: indexing is what keeps it busy.
   */
  async waitUntilIndexed(orgId: string, onProgress: (done: number, total: number, failed: number) => void, timeoutMs: number): Promise<ApiRecord[]> {
    const deadline = Date.now() + timeoutMs;
    let last = -1;
    for (;;) {
      const items = await this.listAllApis(orgId).catch((error: unknown) => {
        if (error instanceof PlatformError && [429, 503].includes(error.problem.status)) return undefined;
        throw error;
      });
      // The gateway leaves `indexing` out when the AI app is too busy to answer in time: a poll
      // without it says nothing about progress, as a busy one.
      if (items?.every((item) => item.indexing)) {
        const done = items.filter((item) => ['COMPLETED', 'FAILED'].includes(item.indexing!.status)).length;
        const failed = items.filter((item) => item.indexing!.status === 'FAILED').length;
        if (done !== last) onProgress(done, items.length, failed);
        last = done;
        if (done === items.length) return items;
      }
      if (Date.now() > deadline) throw new Error(`indexing of org "${orgId}" not finished after ${timeoutMs / 1000} s (${Math.max(last, 0)} done)`);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }

  protected override failure(problem: Problem, retryAfterSeconds?: number): PlatformError {
    return new PlatformError(problem, retryAfterSeconds);
  }
}

/**
 * One Prometheus metric on a `/metrics` page (the AI app's needs no token): its samples summed by
 * the value of `byLabel` (`answered`), or under '' without one; empty when the metric is absent.
 */
export async function readMetric(baseUrl: string, name: string, byLabel?: string): Promise<Map<string, number>> {
  const page = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const samples = new Map<string, number>();
  for (const line of page.split('\n')) {
    const sample = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (sample?.[1] !== name) continue;
    const key = byLabel ? (new RegExp(`${byLabel}="([^"]*)"`).exec(sample[2] ?? '')?.[1] ?? '') : '';
    samples.set(key, (samples.get(key) ?? 0) + Number(sample[3]));
  }
  return samples;
}
