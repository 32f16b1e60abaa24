import type {
  ApiEndpointsResponse,
  ApiKindsResponse,
  ApiListResponse,
  ApiOperationDetailResponse,
  ApiOperationsResponse,
  ApiRecord,
  ApiRegistration,
  AuthInfo,
  DevTokenRequest,
  DevTokenResponse,
  IndexingStatus,
  Problem,
  ReindexAccepted,
  ReindexProgress,
  ReindexRequest,
  SearchFacets,
  SearchRequest,
  SearchResponse,
} from '../../../libs/contracts/src/index.js';

/** A failed call, with the gateway's problem details (or a stand-in when the network failed). */
export class ApiError extends Error {
  /** `retryAfterSeconds`: the server is busy, not down (a 503 or 429 with Retry-After). */
  constructor(
    readonly problem: Problem,
    readonly retryAfterSeconds?: number,
  ) {
    super(problem.detail);
  }

  get status(): number {
    return this.problem.status;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request; a failure (network or not 2xx) is an `ApiError` with the gateway's problem details. */
async function send(method: Method, path: string, token?: string, body?: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError({ type: 'about:blank', title: 'Network error', status: 0, detail: 'The server could not be reached. Check your connection and try again.' });
  }
  if (!response.ok) {
    const text = await response.text();
    const problem = (text.startsWith('{') ? JSON.parse(text) : undefined) as Partial<Problem> | undefined;
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    throw new ApiError({
      type: problem?.type ?? 'about:blank',
      title: problem?.title ?? response.statusText,
      status: response.status,
      detail: problem?.detail ?? `The server answered ${response.status}`,
      ...(problem?.errors ? { errors: problem.errors } : {}),
      ...(problem?.instance ? { instance: problem.instance } : {}),
    }, Number.isFinite(retryAfter) ? retryAfter : undefined);
  }
  return response;
}

async function call<T>(method: Method, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await send(method, path, token, body);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const enc = encodeURIComponent;

/** A registered spec's text as it was sent; `fileName` when asked for as a download. */
export interface SpecText {
  text: string;
  contentType: string;
  fileName?: string;
}

/** The spec is text (JSON, YAML, GraphQL SDL or .proto), not a JSON answer; the file name is the server's. */
async function specText(token: string, apiId: string, download: boolean): Promise<SpecText> {
  const response = await send('GET', `/api-management/apis/${enc(apiId)}/spec${download ? '?download=true' : ''}`, token);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { text: await response.text(), contentType: response.headers.get('content-type') ?? 'text/plain', ...(fileName ? { fileName } : {}) };
}

/** The gateway's public API, typed with the platform's own contracts. */
export const ragApiClient = {
  authInfo: () => call<AuthInfo>('GET', '/auth/info'),
  devToken: (request: DevTokenRequest) => call<DevTokenResponse>('POST', '/auth/dev-token', undefined, request),

  /** The kinds of API the server reads, as its format plugins say them. */
  listKinds: (token: string) => call<ApiKindsResponse>('GET', '/api-management/kinds', token),

  searchApis: (token: string, request: SearchRequest) => call<SearchResponse>('POST', '/api-management/ai/search', token, request),
  getIndexingStatus: (token: string, apiId: string) => call<IndexingStatus>('GET', `/api-management/ai/indexing-status/${enc(apiId)}`, token),
  getFacets: (token: string, orgId: string) => call<SearchFacets>('GET', `/api-management/ai/facets?orgId=${enc(orgId)}`, token),

  /** `labels`: `key:value` each, repeated as `label=`; an API must carry every one. */
  listApis: (token: string, { labels = [], ...query }: { orgId: string; teamName?: string; kind?: string; labels?: string[]; page?: number; pageSize?: number }) => {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
    for (const label of labels) params.append('label', label);
    return call<ApiListResponse>('GET', `/api-management/apis?${params}`, token);
  },
  getApi: (token: string, apiId: string) => call<ApiRecord>('GET', `/api-management/apis/${enc(apiId)}`, token),
  getEndpoints: (token: string, apiId: string) => call<ApiEndpointsResponse>('GET', `/api-management/apis/${enc(apiId)}/endpoints`, token),
  /** From the API's indexed spec (404 until it is indexed): description, servers, auth schemes, operations. */
  getOperations: (token: string, apiId: string) => call<ApiOperationsResponse>('GET', `/api-management/apis/${enc(apiId)}/operations`, token),
  getOperationDetail: (token: string, apiId: string, operation: { method: string; path: string }) =>
    call<ApiOperationDetailResponse>('GET', `/api-management/apis/${enc(apiId)}/operations/detail?${new URLSearchParams(operation)}`, token),
  registerApi: (token: string, body: ApiRegistration) => call<ApiRecord>('POST', '/api-management/apis', token, body),
  updateApi: (token: string, apiId: string, body: ApiRegistration) => call<ApiRecord>('PUT', `/api-management/apis/${enc(apiId)}`, token, body),
  deleteApi: (token: string, apiId: string) => call<void>('DELETE', `/api-management/apis/${enc(apiId)}`, token),
  getSpec: (token: string, apiId: string, options: { download?: boolean } = {}) => specText(token, apiId, options.download ?? false),

  startReindex: (token: string, request: ReindexRequest) => call<ReindexAccepted>('POST', '/api-management/ai/admin/reindex', token, request),
  getReindexProgress: (token: string, reindexId: string) => call<ReindexProgress>('GET', `/api-management/ai/admin/reindex/${enc(reindexId)}`, token),
};
