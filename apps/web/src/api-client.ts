import type {
  ApiDetailsPatch,
  ApiEndpointsResponse,
  ApiImportRequest,
  ApiKindsResponse,
  ApiListResponse,
  ApiOperationDetailResponse,
  ApiOperationsResponse,
  ApiRecord,
  ApiRefreshResult,
  ApiRegistration,
  ApiVersionList,
  ApiVersionPatch,
  ApiVersionRecord,
  ApiVersionRegistration,
  AuthInfo,
  ChangeReportResponse,
  DevTokenRequest,
  DevTokenResponse,
  FeedbackRequest,
  IndexingStatus,
  LifecycleStage,
  LintResponse,
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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

/** `?version=…` (or `&version=…` after other parameters) for a version other than the recommended one; nothing for it. */
function versionQuery(version: string | undefined, joiner: '?' | '&' = '?'): string {
  return version ? `${joiner}version=${enc(version)}` : '';
}

/** A registered spec's text as it was sent; `fileName` when asked for as a download. */
export interface SpecText {
  text: string;
  contentType: string;
  fileName?: string;
}

/** The spec is text (JSON, YAML, GraphQL SDL or .proto), not a JSON answer; the file name is the server's. */
async function specText(token: string, apiId: string, download: boolean, version?: string): Promise<SpecText> {
  const query = new URLSearchParams({ ...(download ? { download: 'true' } : {}), ...(version ? { version } : {}) }).toString();
  const response = await send('GET', `/api-management/apis/${enc(apiId)}/spec${query ? `?${query}` : ''}`, token);
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
  /** A vote on a search's card, or the weaker `opened` signal; a later search of the org for the same need ranks by it. */
  sendFeedback: (token: string, feedback: FeedbackRequest) => call<void>('POST', '/api-management/ai/feedback', token, feedback),

  /** `labels`: `key:value` each, repeated as `label=`; an API must carry every one. `lifecycle`: stages, repeated; any of them. */
  listApis: (token: string, { labels = [], lifecycle = [], ...query }: { orgId: string; teamName?: string; kind?: string; labels?: string[]; lifecycle?: LifecycleStage[]; page?: number; pageSize?: number }) => {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
    for (const label of labels) params.append('label', label);
    for (const stage of lifecycle) params.append('lifecycle', stage);
    return call<ApiListResponse>('GET', `/api-management/apis?${params}`, token);
  },
  getApi: (token: string, apiId: string) => call<ApiRecord>('GET', `/api-management/apis/${enc(apiId)}`, token),
  /** `version`: that version's instead of the recommended one's (so for the next three). */
  getEndpoints: (token: string, apiId: string, version?: string) => call<ApiEndpointsResponse>('GET', `/api-management/apis/${enc(apiId)}/endpoints${versionQuery(version)}`, token),
  /** From the API's indexed spec (404 until it is indexed): description, servers, auth schemes, operations. */
  getOperations: (token: string, apiId: string, version?: string) => call<ApiOperationsResponse>('GET', `/api-management/apis/${enc(apiId)}/operations${versionQuery(version)}`, token),
  getOperationDetail: (token: string, apiId: string, operation: { method: string; path: string }, version?: string) =>
    call<ApiOperationDetailResponse>('GET', `/api-management/apis/${enc(apiId)}/operations/detail?${new URLSearchParams(operation)}${versionQuery(version, '&')}`, token),
  registerApi: (token: string, body: ApiRegistration) => call<ApiRecord>('POST', '/api-management/apis', token, body),
  /** `version`: a new spec for that version rather than the recommended one. */
  updateApi: (token: string, apiId: string, body: ApiRegistration, version?: string) => call<ApiRecord>('PUT', `/api-management/apis/${enc(apiId)}${versionQuery(version)}`, token, body),
  /** The API's name, team, description, labels or recommended version's stage, without its spec: no new revision of it. */
  patchApi: (token: string, apiId: string, body: ApiDetailsPatch) => call<ApiRecord>('PATCH', `/api-management/apis/${enc(apiId)}`, token, body),
  /** Registers an API from the spec at `url` (fetched by the server); the record keeps it as its `source`. */
  importApi: (token: string, body: ApiImportRequest) => call<ApiRecord>('POST', '/api-management/apis/import', token, body),
  /** Fetches an imported API's URL again now: `unchanged`, `updated` (a new revision) or `failed` (the last good spec stays). */
  /** With an empty JSON body: the gateway takes a POST's body as JSON only. */
  refreshApi: (token: string, apiId: string) => call<ApiRefreshResult>('POST', `/api-management/apis/${enc(apiId)}/refresh`, token, {}),
  deleteApi: (token: string, apiId: string) => call<void>('DELETE', `/api-management/apis/${enc(apiId)}`, token),
  getSpec: (token: string, apiId: string, options: { download?: boolean; version?: string } = {}) => specText(token, apiId, options.download ?? false, options.version),

  /** Every version of an API, newest release first; the recommended one marked. */
  listVersions: (token: string, apiId: string) => call<ApiVersionList>('GET', `/api-management/apis/${enc(apiId)}/versions`, token),
  addVersion: (token: string, apiId: string, body: ApiVersionRegistration) => call<ApiVersionRecord>('POST', `/api-management/apis/${enc(apiId)}/versions`, token, body),
  reviseVersion: (token: string, apiId: string, version: string, body: { spec: ApiVersionRegistration['spec']; format?: string }) =>
    call<ApiVersionRecord>('PUT', `/api-management/apis/${enc(apiId)}/versions/${enc(version)}`, token, body),
  patchVersion: (token: string, apiId: string, version: string, body: ApiVersionPatch) => call<ApiVersionRecord>('PATCH', `/api-management/apis/${enc(apiId)}/versions/${enc(version)}`, token, body),
  deleteVersion: (token: string, apiId: string, version: string) => call<void>('DELETE', `/api-management/apis/${enc(apiId)}/versions/${enc(version)}`, token),
  /** `from`, `to`: a version, or `version@revision`; `to` absent: the recommended version. */
  getChanges: (token: string, apiId: string, from: string, to?: string) =>
    call<ChangeReportResponse>('GET', `/api-management/apis/${enc(apiId)}/changes?${new URLSearchParams({ from, ...(to ? { to } : {}) })}`, token),
  /** A version's lint findings (its current revision, or `revision`). */
  getLint: (token: string, apiId: string, version: string, revision?: number) =>
    call<LintResponse>('GET', `/api-management/apis/${enc(apiId)}/versions/${enc(version)}/lint${revision !== undefined ? `?revision=${revision}` : ''}`, token),

  startReindex: (token: string, request: ReindexRequest) => call<ReindexAccepted>('POST', '/api-management/ai/admin/reindex', token, request),
  getReindexProgress: (token: string, reindexId: string) => call<ReindexProgress>('GET', `/api-management/ai/admin/reindex/${enc(reindexId)}`, token),
};
