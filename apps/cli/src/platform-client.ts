import type {
  ApiEndpointsResponse,
  ApiImportRequest,
  ApiKindsResponse,
  ApiListResponse,
  ApiRecord,
  ApiSourceFile,
  FeedbackErased,
  FeedbackReport,
  FeedbackRequest,
  IndexingStatus,
  LifecycleStage,
  Problem,
  SearchRequest,
  SearchResponse,
} from '#contracts';

export interface RegisterBody {
  orgId: string;
  name: string;
  version: string;
  teamName?: string;
  description?: string;
  labels?: Record<string, string>;
  spec: string | object;
  format?: string;
  lifecycle?: LifecycleStage;
  /** Which file of an imported tree the API comes from (`npm run import`). */
  source?: ApiSourceFile;
}

const RETRIES_WHEN_TOLD = 5;

/** A call that did not answer 2xx: the problem document the gateway sent. */
export class PlatformError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
  }
}

/** Typed client of the gateway's public API, for the CLIs (start, import) and the benchmarks (eval, bench). */
export class PlatformClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  registerApi(body: RegisterBody): Promise<ApiRecord> {
    return this.call('POST', '/api-management/apis', body);
  }

  /** Replaces the spec of the recommended version, or of `version`. */
  updateApi(apiId: string, body: RegisterBody, version?: string): Promise<ApiRecord> {
    const query = version === undefined ? '' : `?version=${encodeURIComponent(version)}`;
    return this.call('PUT', `/api-management/apis/${apiId}${query}`, body);
  }

  importApi(body: ApiImportRequest): Promise<ApiRecord> {
    return this.call('POST', '/api-management/apis/import', body);
  }

  kinds(): Promise<ApiKindsResponse> {
    return this.call('GET', '/api-management/kinds');
  }

  deleteApi(apiId: string): Promise<void> {
    return this.call('DELETE', `/api-management/apis/${apiId}`);
  }

  indexingStatus(apiId: string): Promise<IndexingStatus> {
    return this.call('GET', `/api-management/ai/indexing-status/${apiId}`);
  }

  endpoints(apiId: string): Promise<ApiEndpointsResponse> {
    return this.call('GET', `/api-management/apis/${apiId}/endpoints`);
  }

  /** A search; its answer's `searchId` names it in `feedback`. */
  search(request: SearchRequest): Promise<SearchResponse> {
    return this.call('POST', '/api-management/ai/search', request);
  }

  /** What the token's person chose after a search (204): once per person, need and API. */
  feedback(request: FeedbackRequest): Promise<void> {
    return this.call('POST', '/api-management/ai/feedback', request);
  }

  /** The org's stored feedback (admin). */
  feedbackReport(orgId: string): Promise<FeedbackReport> {
    return this.call('GET', `/api-management/ai/admin/feedback?${new URLSearchParams({ orgId })}`);
  }

  /** Erases the org's feedback, or only one API's (admin). */
  eraseFeedback(orgId: string, apiId?: string): Promise<FeedbackErased> {
    return this.call('DELETE', `/api-management/ai/admin/feedback?${new URLSearchParams({ orgId, ...(apiId !== undefined ? { apiId } : {}) })}`);
  }

  /** Every API of an org (that passes `filters`, e.g. `{sourceTree}`), all pages. */
  async listAllApis(orgId: string, filters: Record<string, string> = {}): Promise<ApiRecord[]> {
    const items: ApiRecord[] = [];
    const query = new URLSearchParams({ orgId, ...filters });
    for (let page = 1; ; page++) {
      const result = await this.call<ApiListResponse>('GET', `/api-management/apis?${query}&page=${page}&pageSize=100`);
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

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      // Rate limited, or busy for a moment: wait as told, a few times, rather than fail a long run.
      const told = response.status === 429 || (response.status === 503 && response.headers.has('retry-after'));
      if (!told || attempt >= RETRIES_WHEN_TOLD) break;
      await response.text();
      const seconds = Math.min(Number(response.headers.get('retry-after')) || 1, 60);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
    const text = await response.text();
    if (!response.ok) {
      const problem = text ? (JSON.parse(text) as Problem) : { type: 'about:blank', title: response.statusText, status: response.status, detail: '' };
      throw new PlatformError(problem);
    }
    return (text ? JSON.parse(text) : undefined) as T;
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
