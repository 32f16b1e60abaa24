import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { EMBEDDING_PROVIDER_NAMES, type EmbeddingProviderName } from '#embeddings';
import { bool, ConfigError, dataDir, devSecrets, int, list, num, oneOf, optionalStr, str, url } from './env.js';

type Env = Record<string, string | undefined>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const AI_ROLES = ['api', 'worker', 'all'] as const;
export type AiRole = (typeof AI_ROLES)[number];

export interface RedisConfig {
  url: string;
  /** BullMQ key prefix; lets two stacks share one Redis database. */
  queuePrefix: string;
}

export interface DatabaseConfig {
  /** PostgreSQL URL; when absent, embedded PGlite in `pgliteDir`. */
  url?: string;
  pgliteDir: string;
  /** A dump of a data directory just initialised, for a `memory://` one to start from (tests: `DatabaseTarget`). */
  pgliteSeed?: string;
  poolSize: number;
  /** Run pending migrations at start; off where a one-shot migration job does it (`npm run migrate`). */
  migrate: boolean;
  /** A streaming replica of `url` for the AI app's search and listing reads (`DATABASE_READ_URL`); `url` when absent. */
  readUrl?: string;
}

export interface AuthConfig {
  /** HS256 shared secret; absent when only an identity provider's keys (JWKS) are trusted. */
  jwtSecret?: string;
  /** RS256/ES256 tokens are verified with the keys published here (cached, refetched on rotation). */
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  clockSkewSeconds: number;
  /** Development only: anyone may get a token from `POST /auth/dev-token` (the web UI's dev sign-in). */
  devLogin: boolean;
  /** Dev sign-in also for callers on other machines; by default only callers on a loopback address get a token. */
  devLoginRemote: boolean;
}

export interface GatewayConfig {
  host: string;
  port: number;
  aiUrl: string;
  aiTimeoutMs: number;
  serviceToken: string;
  auth: AuthConfig;
  specMaxBytes: number;
  /** Requests per caller per minute (by token subject, or by address before sign-in). */
  rateLimitPerMinute: number;
  /** Origins allowed to call from a browser; empty means CORS is off. */
  corsOrigins: string[];
  logLevel: LogLevel;
  redis: RedisConfig;
  database: DatabaseConfig;
  /** How often unsent indexing requests are re-sent to the queue, and the webhooks' outbox is swept. */
  outboxIntervalMs: number;
  /** How long a spec thread may take to check one spec before it is refused. */
  specTimeoutMs: number;
  /** Characters of a registered spec the MCP resource serves; the rest is cut with a note (MCP_SPEC_MAX_CHARS). */
  mcpSpecMaxChars: number;
  /** How often, and after how long, queued revisions the index has not reached are looked for in Redis (see `IndexReconciler`). */
  reconcile: { intervalMs: number; graceMs: number };
  /** What one operation's expanded schemas may take in an operation-detail answer or a change report's comparison. */
  operationDetailMaxChars: number;
  /**
   * Orgs where a new spec that breaks a version in production without a new major version is
   * refused (409) rather than registered with a warning (BREAKING_CHANGES_REFUSED_ORGS; `*`: every org).
   */
  breakingChangesRefusedOrgs: string[];
  /** `api.sunset.approaching` goes once per sunset date, `days` before it; checked every `intervalMs`. */
  sunsetNotice: { days: number; intervalMs: number };
  /** Events (the feed, webhook deliveries) are kept this many days once delivered (EVENT_RETENTION_DAYS). */
  eventRetentionDays: number;
  /** Imports from a URL (see `SpecFetcher`). */
  import: ImportConfig;
  /** Webhook deliveries (see the gateway's `webhooks/`). */
  webhooks: WebhooksConfig;
}

export interface WebhooksConfig {
  /** `host:port` pairs a webhook may be sent to although they are loopback, private or link-local addresses (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: string[];
  /** How long one try may take, its answer included (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** The wait before the first retry, doubled for each one after (WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Tries of one delivery, the first included, before it is `failed` (WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Failed deliveries in a row that disable a webhook (WEBHOOK_FAILURES_TO_DISABLE). */
  failuresToDisable: number;
  /** Deliveries sent at once by this process (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Deliveries of one org sent at once by this process (WEBHOOK_ORG_CONCURRENCY): one org's slow receiver leaves the rest to the others. */
  orgConcurrency: number;
}

export interface ImportConfig {
  /**
   * `host:port` pairs an import may fetch from although they are loopback, private or link-local
   * addresses (IMPORT_ALLOWED_HOSTS): an internal spec server. Every other such address is refused.
   */
  allowedHosts: string[];
  /** How long one fetch may take, redirects included (IMPORT_TIMEOUT_MS). */
  timeoutMs: number;
  /** How often imported URLs are fetched again (IMPORT_REFRESH_INTERVAL_MS); 0: only on `POST …/refresh`. */
  refreshIntervalMs: number;
  /** URL fetches (with their spec check) in flight in this process, refreshes included (IMPORT_MAX_IN_FLIGHT); past it a 503. */
  maxInFlight: number;
  /** URL fetches one caller (token `sub`) may have in flight (IMPORT_MAX_IN_FLIGHT_PER_CALLER); past it a 429. */
  maxInFlightPerCaller: number;
}

export interface EmbeddingsConfig {
  provider: EmbeddingProviderName;
  /** The provider's model name (`openai`). */
  model: string;
  /** Vector size where the provider lets you choose (`openai`: the model's own by default; `hash`: 512). */
  dimensions?: number;
  batchSize: number;
  openai: { apiKey?: string; baseUrl?: string; timeoutMs: number };
}

export interface AiConfig {
  logLevel: LogLevel;
  host: string;
  port: number;
  serviceToken: string;
  redis: RedisConfig;
  database: DatabaseConfig;
  embeddings: EmbeddingsConfig;
  indexingConcurrency: number;
  /** How long a worker's hold on a job (and on an API) lasts without renewal: a killed worker's job is taken over after about this long. */
  indexingLockMs: number;
  /** HNSW candidates list per vector search (`hnsw.ef_search`): higher finds more of the true nearest chunks, slower. */
  hnswEfSearch: number;
  /** `api`: search, status and admin over HTTP; `worker`: the indexing worker (HTTP: health and metrics only); `all`: both. */
  role: AiRole;
  /** How long a spec thread may take to parse and chunk one spec before it is FAILED. */
  specTimeoutMs: number;
  /** What one API may put in the index (see `ChunkLimits`). */
  indexLimits: { maxChunks: number; maxSchemas: number; maxEmbedChars: number };
  /** What searches may cost (see `SearchAdmission` and `KeywordLimits`). */
  search: { concurrency: number; queue: number; timeoutMs: number; maxTerms: number; maxTypoWords: number };
  /** What one operation's expanded schemas may take in an operation-detail answer; the rest is cut with a note. */
  operationDetailMaxChars: number;
  feedback: FeedbackConfig;
}

/** Learning from what people pick after a search (see the AI app's feedback module). */
export interface FeedbackConfig {
  /** How long after a search its answer can be given feedback (the search log is kept this long). */
  windowDays: number;
  /** How long a signal is kept. */
  retentionDays: number;
  /** A signal's weight halves every this many days: needs and APIs change. */
  halfLifeDays: number;
  /** Key of the hash a person is stored as: never the identity itself. */
  identityKey: string;
}

function redisConfig(env: Env): RedisConfig {
  return {
    url: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:'])!,
    queuePrefix: str(env, 'QUEUE_PREFIX', 'bull'),
  };
}

function databaseConfig(env: Env, app: 'gateway' | 'ai'): DatabaseConfig {
  const primary = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const readUrl = url(env, 'DATABASE_READ_URL', undefined, ['postgres:', 'postgresql:']);
  // Embedded PGlite is one process's database: there is nothing to replicate it to.
  if (readUrl && !primary) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (a replica of an embedded database cannot exist)');
  return {
    url: primary,
    pgliteDir: join(dataDir(env), app),
    poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    migrate: bool(env, 'DATABASE_MIGRATE', true),
    ...(readUrl ? { readUrl } : {}),
  };
}

function serviceToken(env: Env): string {
  return optionalStr(env, 'AI_SERVICE_TOKEN') ?? devSecrets(dataDir(env)).serviceToken;
}

function authConfig(env: Env): AuthConfig {
  const jwksUrl = url(env, 'AUTH_JWKS_URL', undefined, ['https:', 'http:']);
  // With an identity provider configured, shared-secret tokens are accepted only if a secret is set explicitly.
  const jwtSecret = optionalStr(env, 'AUTH_JWT_SECRET') ?? (jwksUrl ? undefined : devSecrets(dataDir(env)).jwtSecret);
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError('AUTH_JWT_SECRET must be at least 32 characters');
  const devLogin = bool(env, 'AUTH_DEV_LOGIN', false);
  if (devLogin && !jwtSecret) throw new ConfigError('AUTH_DEV_LOGIN=true needs AUTH_JWT_SECRET (dev tokens are HS256)');
  return {
    devLogin,
    devLoginRemote: bool(env, 'AUTH_DEV_LOGIN_REMOTE', false),
    jwtSecret,
    jwksUrl,
    issuer: optionalStr(env, 'AUTH_ISSUER'),
    audience: optionalStr(env, 'AUTH_AUDIENCE'),
    clockSkewSeconds: int(env, 'AUTH_CLOCK_SKEW_SECONDS', 30, 0, 600),
  };
}

/** A 10 MB YAML spec takes a few seconds to parse on a busy core; a minute is for no real spec. */
function specTimeoutMs(env: Env): number {
  return int(env, 'SPEC_TIMEOUT_MS', 60_000, 1000, 3_600_000);
}

/**
 * PGlite runs one statement at a time: two searches at once overlap one's embedding with the
 * other's SQL, more only compete for the cores (measured with `npm run bench -- --flood`: the same
 * 12 searches/s at 2 or 4, p50 0.7 s against 1.8 s when 4 run and 16 wait). PostgreSQL runs them
 * side by side. Waiting places: three a running search, so a search waits about a second at most.
 */
function searchConfig(env: Env, postgres: boolean): AiConfig['search'] {
  const concurrency = int(env, 'SEARCH_CONCURRENCY', postgres ? 8 : 2, 1, 1000);
  return {
    concurrency,
    queue: int(env, 'SEARCH_QUEUE', 3 * concurrency, 0, 10_000),
    // Below the gateway's AI_TIMEOUT_MS (15 s), so the caller hears why.
    timeoutMs: int(env, 'SEARCH_TIMEOUT_MS', 10_000, 100, 600_000),
    maxTerms: int(env, 'SEARCH_MAX_TERMS', 32, 1, 500),
    maxTypoWords: int(env, 'SEARCH_MAX_TYPO_WORDS', 5, 0, 100),
  };
}

function operationDetailMaxChars(env: Env): number {
  return int(env, 'OPERATION_DETAIL_MAX_CHARS', 20_000, 1000, 1_000_000);
}

function logLevel(env: Env): LogLevel {
  return oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info');
}

/** `host:port` (`[::1]:8080` for IPv6), lower-case as a URL's host is: the port is required, so that one service is allowed, not a machine. */
function allowedHosts(env: Env, key: 'IMPORT_ALLOWED_HOSTS' | 'WEBHOOK_ALLOWED_HOSTS'): string[] {
  const hosts = list(env, key).map((host) => host.toLowerCase());
  const bad = hosts.find((host) => !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(host));
  if (bad !== undefined) throw new ConfigError(`${key} must list host:port pairs separated by commas ("${bad}" is not one)`);
  return hosts;
}

function webhooksConfig(env: Env): WebhooksConfig {
  const concurrency = int(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256);
  const orgConcurrency = int(env, 'WEBHOOK_ORG_CONCURRENCY', 2, 1, 256);
  // An org allowed every slot could hold them all with a slow receiver: the others would wait.
  if (concurrency > 1 && orgConcurrency >= concurrency) {
    throw new ConfigError(`WEBHOOK_ORG_CONCURRENCY (${orgConcurrency}) must be below WEBHOOK_CONCURRENCY (${concurrency}), so one org cannot take every slot`);
  }
  return {
    allowedHosts: allowedHosts(env, 'WEBHOOK_ALLOWED_HOSTS'),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    // 5 s doubling: the first retry within 10 s, the eighth try about 10 minutes after the first.
    retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 5000, 10, 3_600_000),
    maxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1, 30),
    failuresToDisable: int(env, 'WEBHOOK_FAILURES_TO_DISABLE', 5, 1, 1000),
    concurrency,
    orgConcurrency,
  };
}

export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const aiPort = int(env, 'AI_PORT', 9090, 1, 65535);
  return {
    logLevel: logLevel(env),
    host: str(env, 'GATEWAY_HOST', '0.0.0.0'),
    port: int(env, 'GATEWAY_PORT', 8080, 0, 65535),
    aiUrl: url(env, 'AI_URL', `http://127.0.0.1:${aiPort}`, ['http:', 'https:'])!.replace(/\/+$/, ''),
    aiTimeoutMs: int(env, 'AI_TIMEOUT_MS', 15000, 100, 600000),
    serviceToken: serviceToken(env),
    auth: authConfig(env),
    specMaxBytes: int(env, 'SPEC_MAX_BYTES', 10 * 1024 * 1024, 1024),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600, 1),
    corsOrigins: list(env, 'CORS_ORIGINS'),
    redis: redisConfig(env),
    database: databaseConfig(env, 'gateway'),
    outboxIntervalMs: int(env, 'OUTBOX_INTERVAL_MS', 5000, 100),
    specTimeoutMs: specTimeoutMs(env),
    // About 25k tokens: more than most of an agent's context is worth spending on one spec.
    mcpSpecMaxChars: int(env, 'MCP_SPEC_MAX_CHARS', 100_000, 1000, 10 * 1024 * 1024),
    reconcile: {
      intervalMs: int(env, 'RECONCILE_INTERVAL_MS', 30_000, 100, 3_600_000),
      // A job waits in Redis as long as the queue ahead of it takes: it is looked for, not queued again.
      graceMs: int(env, 'RECONCILE_GRACE_MS', 30_000, 0, 86_400_000),
    },
    operationDetailMaxChars: operationDetailMaxChars(env),
    breakingChangesRefusedOrgs: list(env, 'BREAKING_CHANGES_REFUSED_ORGS'),
    sunsetNotice: {
      days: int(env, 'SUNSET_NOTICE_DAYS', 30, 1, 3650),
      intervalMs: int(env, 'SUNSET_CHECK_INTERVAL_MS', 3_600_000, 100, 86_400_000),
    },
    eventRetentionDays: int(env, 'EVENT_RETENTION_DAYS', 90, 1, 3650),
    import: {
      allowedHosts: allowedHosts(env, 'IMPORT_ALLOWED_HOSTS'),
      timeoutMs: int(env, 'IMPORT_TIMEOUT_MS', 15_000, 100, 600_000),
      refreshIntervalMs: int(env, 'IMPORT_REFRESH_INTERVAL_MS', 0, 0, 7 * 86_400_000),
      // Each fetch may hold up to SPEC_MAX_BYTES and then a spec thread's parse of it: a few at once.
      maxInFlight: int(env, 'IMPORT_MAX_IN_FLIGHT', 4, 1, 256),
      maxInFlightPerCaller: int(env, 'IMPORT_MAX_IN_FLIGHT_PER_CALLER', 2, 1, 256),
    },
    webhooks: webhooksConfig(env),
  };
}

export function loadAiConfig(env: Env = process.env): AiConfig {
  const database = databaseConfig(env, 'ai');
  const embeddings: EmbeddingsConfig = {
    provider: oneOf(env, 'EMBEDDINGS_PROVIDER', EMBEDDING_PROVIDER_NAMES, 'local'),
    model: str(env, 'EMBEDDINGS_MODEL', 'text-embedding-3-small'),
    dimensions: optionalStr(env, 'EMBEDDINGS_DIMENSIONS') ? int(env, 'EMBEDDINGS_DIMENSIONS', 0, 1, 4096) : undefined,
    batchSize: int(env, 'EMBEDDINGS_BATCH_SIZE', 32, 1, 2048),
    openai: {
      apiKey: optionalStr(env, 'OPENAI_API_KEY'),
      baseUrl: url(env, 'OPENAI_BASE_URL', undefined, ['http:', 'https:']),
      timeoutMs: int(env, 'OPENAI_TIMEOUT_MS', 30000, 100),
    },
  };
  if (embeddings.provider === 'openai' && !embeddings.openai.apiKey && !embeddings.openai.baseUrl) {
    throw new ConfigError('EMBEDDINGS_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)');
  }
  return {
    logLevel: logLevel(env),
    host: str(env, 'AI_HOST', '127.0.0.1'),
    port: int(env, 'AI_PORT', 9090, 0, 65535),
    serviceToken: serviceToken(env),
    redis: redisConfig(env),
    database,
    embeddings,
    // Two: one job embeds while another parses or writes (measured: 0.96 of the model's throughput, 0.59 with one).
    indexingConcurrency: int(env, 'INDEXING_CONCURRENCY', 2, 1, 64),
    indexingLockMs: int(env, 'INDEXING_LOCK_MS', 30_000, 1000, 600_000),
    // pgvector's own bounds. 200: recall@10 0.989 at 27k real vectors (README, Performance).
    hnswEfSearch: int(env, 'HNSW_EF_SEARCH', 200, 1, 1000),
    role: oneOf(env, 'AI_ROLE', AI_ROLES, 'all'),
    specTimeoutMs: specTimeoutMs(env),
    indexLimits: {
      maxChunks: int(env, 'INDEX_MAX_CHUNKS', 2000, 10, 100_000),
      maxSchemas: int(env, 'INDEX_MAX_SCHEMAS', 1000, 0, 100_000),
      maxEmbedChars: int(env, 'EMBED_MAX_CHARS', 2000, 100, 100_000),
    },
    search: searchConfig(env, database.url !== undefined),
    // About 500 lines of pretty JSON: a large request body in full, and no answer of megabytes.
    operationDetailMaxChars: operationDetailMaxChars(env),
    feedback: {
      windowDays: num(env, 'FEEDBACK_WINDOW_DAYS', 7, 0.00001, 3650),
      retentionDays: num(env, 'FEEDBACK_RETENTION_DAYS', 180, 0.00001, 3650),
      halfLifeDays: num(env, 'FEEDBACK_HALF_LIFE_DAYS', 60, 0.00001, 3650),
      // Derived from the service token when unset: stable across restarts and replicas, and as secret.
      identityKey: optionalStr(env, 'FEEDBACK_IDENTITY_KEY') ?? createHmac('sha256', serviceToken(env)).update('feedback-identity').digest('base64url'),
    },
  };
}
