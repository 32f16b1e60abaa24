import {
  type ApiDetailsPatch,
  ApiError,
  type ApiImportRequest,
  type ApiListQuery,
  type ApiRegistration,
  type ApiVersionPatch,
  type ApiVersionRegistration,
  type ConsumerDeclaration,
  type DevTokenRequest,
  type LifecycleStage,
  type NotificationQuery,
  type WebhookRegistration,
  type FeedbackRequest,
  GATEWAY_ROUTES as ROUTES,
  GatewayClient,
  type ReindexRequest,
  type SearchRequest,
  type SpecQuery,
} from '../../../libs/contracts/src/index.js';

export { ApiError };

/** The page's own origin; a network failure is an `ApiError` too, which the views show as any other. */
const gateway = new GatewayClient({
  unreachable: { type: 'about:blank', title: 'Network error', status: 0, detail: 'The server could not be reached. Check your connection and try again.' },
});

/** `?version=…` for a version other than the recommended one; none for it (or for an empty one). */
const versionQuery = (version: string | undefined) => ({ version: version || undefined });

/** A filter's fields without the empty ones: a field left blank filters nothing. */
const withoutBlanks = <T extends object>(query: T): T => Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '')) as T;

/** A registered spec's text as it was sent; `fileName` when asked for as a download. */
export interface SpecText {
  text: string;
  contentType: string;
  fileName?: string;
}

/** The spec is text (JSON, YAML, GraphQL SDL or .proto), not a JSON answer; the file name is the server's. */
async function specText(token: string, apiId: string, { download, version }: SpecQuery): Promise<SpecText> {
  const response = await gateway.send(ROUTES.spec, { token, params: { apiId }, query: { download: download || undefined, ...versionQuery(version) } });
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { text: await response.text(), contentType: response.headers.get('content-type') ?? 'text/plain', ...(fileName ? { fileName } : {}) };
}

/** The gateway's public API (`GATEWAY_ROUTES`) as the views call it: the session's token first. */
export const ragApiClient = {
  authInfo: () => gateway.request(ROUTES.authInfo, {}),
  devToken: (request: DevTokenRequest) => gateway.request(ROUTES.devToken, { body: request }),

  /** The kinds of API the server reads, as its format plugins say them. */
  listKinds: (token: string) => gateway.request(ROUTES.kinds, { token }),

  searchApis: (token: string, request: SearchRequest) => gateway.request(ROUTES.search, { token, body: request }),
  getIndexingStatus: (token: string, apiId: string) => gateway.request(ROUTES.indexingStatus, { token, params: { apiId } }),
  getFacets: (token: string, orgId: string) => gateway.request(ROUTES.facets, { token, query: { orgId } }),
  /** A vote on a search's card, or the weaker `opened` signal; a later search of the org for the same need ranks by it. */
  sendFeedback: (token: string, feedback: FeedbackRequest) => gateway.request(ROUTES.feedback, { token, body: feedback }),

  /** `labels`: `key:value` each, repeated as `label=`; an API must carry every one. `lifecycle`: stages, repeated; any of them. */
  listApis: (token: string, { labels, ...query }: Omit<ApiListQuery, 'label' | 'sourceTree'> & { orgId: string; labels?: string[] }) =>
    gateway.request(ROUTES.listApis, { token, query: { ...withoutBlanks(query), label: labels } }),
  getApi: (token: string, apiId: string) => gateway.request(ROUTES.getApi, { token, params: { apiId } }),
  /** `version`: that version's instead of the recommended one's (so for the next three). */
  getEndpoints: (token: string, apiId: string, version?: string) =>
    gateway.request(ROUTES.endpoints, { token, params: { apiId }, query: versionQuery(version) }),
  /** From the API's indexed spec (404 until it is indexed): description, servers, auth schemes, operations. */
  getOperations: (token: string, apiId: string, version?: string) =>
    gateway.request(ROUTES.operations, { token, params: { apiId }, query: versionQuery(version) }),
  getOperationDetail: (token: string, apiId: string, operation: { method: string; path: string }, version?: string) =>
    gateway.request(ROUTES.operationDetail, { token, params: { apiId }, query: { ...operation, ...versionQuery(version) } }),
  registerApi: (token: string, body: ApiRegistration) => gateway.request(ROUTES.registerApi, { token, body }),
  /** `version`: a new spec for that version rather than the recommended one. */
  updateApi: (token: string, apiId: string, body: ApiRegistration, version?: string) =>
    gateway.request(ROUTES.updateApi, { token, params: { apiId }, query: versionQuery(version), body }),
  /** The API's name, team, description, labels or recommended version's stage, without its spec: no new revision of it. */
  patchApi: (token: string, apiId: string, body: ApiDetailsPatch) => gateway.request(ROUTES.patchApi, { token, params: { apiId }, body }),
  /** Registers an API from the spec at `url` (fetched by the server); the record keeps it as its `source`. */
  importApi: (token: string, body: ApiImportRequest) => gateway.request(ROUTES.importApi, { token, body }),
  /** Fetches an imported API's URL again now: `unchanged`, `updated` (a new revision) or `failed` (the last good spec stays). */
  refreshApi: (token: string, apiId: string) => gateway.request(ROUTES.refreshApi, { token, params: { apiId }, body: {} }),
  /** `force`: even when consumers use it (without it: a 409 naming them). */
  deleteApi: (token: string, apiId: string, force?: boolean) =>
    gateway.request(ROUTES.deleteApi, { token, params: { apiId }, query: { force: force || undefined } }),
  getSpec: (token: string, apiId: string, options: SpecQuery = {}) => specText(token, apiId, options),

  /** Every version of an API, newest release first; the recommended one marked. */
  listVersions: (token: string, apiId: string) => gateway.request(ROUTES.listVersions, { token, params: { apiId } }),
  addVersion: (token: string, apiId: string, body: ApiVersionRegistration) => gateway.request(ROUTES.addVersion, { token, params: { apiId }, body }),
  patchVersion: (token: string, apiId: string, version: string, body: ApiVersionPatch) =>
    gateway.request(ROUTES.patchVersion, { token, params: { apiId, version }, body }),
  /** `force`: even when consumers use it (without it: a 409 naming them). */
  deleteVersion: (token: string, apiId: string, version: string, force?: boolean) =>
    gateway.request(ROUTES.deleteVersion, { token, params: { apiId, version }, query: { force: force || undefined } }),
  /** `from`, `to`: a version, or `version@revision`; `to` absent: the recommended version. */
  getChanges: (token: string, apiId: string, from: string, to?: string) =>
    gateway.request(ROUTES.changes, { token, params: { apiId }, query: { from, to: to || undefined } }),
  /** A version's lint findings (its current revision, or `revision`). */
  getLint: (token: string, apiId: string, version: string, revision?: number) =>
    gateway.request(ROUTES.lint, { token, params: { apiId, version }, query: { revision } }),

  /** The services and apps known to use the API: declared, from a catalog, observed. */
  listConsumers: (token: string, apiId: string) => gateway.request(ROUTES.listConsumers, { token, params: { apiId } }),
  addConsumer: (token: string, apiId: string, body: ConsumerDeclaration) => gateway.request(ROUTES.addConsumer, { token, params: { apiId }, body }),
  deleteConsumer: (token: string, apiId: string, consumerId: string) => gateway.request(ROUTES.deleteConsumer, { token, params: { apiId, consumerId } }),
  /** The org's consumers and the API versions each uses; `stage`: only uses of versions in these stages. */
  consumerDependencies: (token: string, orgId: string, stage?: LifecycleStage[]) =>
    gateway.request(ROUTES.consumerDependencies, { token, query: { orgId, stage } }),

  getWatch: (token: string, apiId: string) => gateway.request(ROUTES.getWatch, { token, params: { apiId } }),
  watchApi: (token: string, apiId: string) => gateway.request(ROUTES.watchApi, { token, params: { apiId }, body: {} }),
  unwatchApi: (token: string, apiId: string) => gateway.request(ROUTES.unwatchApi, { token, params: { apiId } }),
  /** The caller's feed, newest first; `before`: the page before's `nextBefore`. */
  notifications: (token: string, query: NotificationQuery) => gateway.request(ROUTES.notifications, { token, query: withoutBlanks(query) }),

  listWebhooks: (token: string, orgId: string) => gateway.request(ROUTES.listWebhooks, { token, query: { orgId } }),
  /** The answer carries the signing secret, this once. */
  createWebhook: (token: string, body: WebhookRegistration) => gateway.request(ROUTES.createWebhook, { token, body }),
  deleteWebhook: (token: string, webhookId: string) => gateway.request(ROUTES.deleteWebhook, { token, params: { webhookId } }),
  enableWebhook: (token: string, webhookId: string) => gateway.request(ROUTES.enableWebhook, { token, params: { webhookId }, body: {} }),
  webhookDeliveries: (token: string, webhookId: string) => gateway.request(ROUTES.webhookDeliveries, { token, params: { webhookId } }),
  testWebhook: (token: string, webhookId: string) => gateway.request(ROUTES.testWebhook, { token, params: { webhookId }, body: {} }),

  startReindex: (token: string, request: ReindexRequest) => gateway.request(ROUTES.startReindex, { token, body: request }),
  getReindexProgress: (token: string, reindexId: string) => gateway.request(ROUTES.reindexProgress, { token, params: { reindexId } }),
};
