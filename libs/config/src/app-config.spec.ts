import { describe, expect, it } from '@jest/globals';
import { loadAiConfig, loadGatewayConfig } from './app-config.js';
import { ConfigError } from './env.js';

describe('loadAiConfig', () => {
  const env = { AI_SERVICE_TOKEN: 'a-service-token-long-enough-for-the-check' };

  it('should search HNSW with 200 candidates unless told otherwise', () => {
    expect(loadAiConfig(env).hnswEfSearch).toBe(200);
    expect(loadAiConfig({ ...env, HNSW_EF_SEARCH: '800' }).hnswEfSearch).toBe(800);
  });

  it('should refuse an ef_search that pgvector would refuse, naming the variable', () => {
    expect(() => loadAiConfig({ ...env, HNSW_EF_SEARCH: '5000' })).toThrow(ConfigError);
    expect(() => loadAiConfig({ ...env, HNSW_EF_SEARCH: 'lots' })).toThrow('HNSW_EF_SEARCH must be an integer between 1 and 1000, got "lots"');
  });

  it('should run two searches at once on PGlite and eight on PostgreSQL, with three places waiting for each', () => {
    expect(loadAiConfig(env).search).toMatchObject({ concurrency: 2, queue: 6, timeoutMs: 10_000 });
    expect(loadAiConfig({ ...env, DATABASE_URL: 'postgres://db/platform' }).search).toMatchObject({ concurrency: 8, queue: 24 });
    expect(loadAiConfig({ ...env, SEARCH_CONCURRENCY: '3', SEARCH_QUEUE: '0' }).search).toMatchObject({ concurrency: 3, queue: 0 });
    expect(() => loadAiConfig({ ...env, SEARCH_CONCURRENCY: '0' })).toThrow('SEARCH_CONCURRENCY must be an integer between 1 and 1000, got "0"');
  });

  it('should cut operation details at 20,000 characters of schema unless told otherwise', () => {
    expect(loadAiConfig(env).operationDetailMaxChars).toBe(20_000);
    expect(loadAiConfig({ ...env, OPERATION_DETAIL_MAX_CHARS: '5000' }).operationDetailMaxChars).toBe(5000);
    expect(() => loadAiConfig({ ...env, OPERATION_DETAIL_MAX_CHARS: '10' })).toThrow(
      'OPERATION_DETAIL_MAX_CHARS must be an integer between 1000 and 1000000, got "10"',
    );
  });
});

describe('loadGatewayConfig', () => {
  const env = { AI_SERVICE_TOKEN: 'a-service-token-long-enough-for-the-check', AUTH_JWT_SECRET: 'a-jwt-secret-of-at-least-32-characters!!' };

  it('should keep development sign-in to callers on this machine unless told otherwise', () => {
    expect(loadGatewayConfig({ ...env, AUTH_DEV_LOGIN: 'true' }).auth).toMatchObject({ devLogin: true, devLoginRemote: false });
    expect(loadGatewayConfig({ ...env, AUTH_DEV_LOGIN: 'true', AUTH_DEV_LOGIN_REMOTE: 'true' }).auth).toMatchObject({ devLogin: true, devLoginRemote: true });
  });

  it('should refuse an AUTH_DEV_LOGIN_REMOTE that is not true or false, naming the variable', () => {
    expect(() => loadGatewayConfig({ ...env, AUTH_DEV_LOGIN_REMOTE: 'lan' })).toThrow('AUTH_DEV_LOGIN_REMOTE must be true or false, got "lan"');
  });

  it('should allow no internal host to imports, refresh no URL, and take allowed hosts only as host:port', () => {
    expect(loadGatewayConfig(env).import).toEqual({ allowedHosts: [], timeoutMs: 15_000, refreshIntervalMs: 0, maxInFlight: 4, maxInFlightPerCaller: 2 });
    expect(loadGatewayConfig({ ...env, IMPORT_ALLOWED_HOSTS: 'Specs.internal:8080, [::1]:9000' }).import.allowedHosts).toEqual([
      'specs.internal:8080',
      '[::1]:9000',
    ]);
    expect(() => loadGatewayConfig({ ...env, IMPORT_ALLOWED_HOSTS: 'specs.internal' })).toThrow(
      'IMPORT_ALLOWED_HOSTS must list host:port pairs separated by commas ("specs.internal" is not one)',
    );
    expect(() => loadGatewayConfig({ ...env, IMPORT_ALLOWED_HOSTS: 'http://specs.internal:80' })).toThrow(ConfigError);
  });

  it('should send webhooks to no internal host, retry from 5 s doubling 8 tries, and keep an org below every slot', () => {
    expect(loadGatewayConfig(env).webhooks).toEqual({
      allowedHosts: [],
      timeoutMs: 10_000,
      retryBaseMs: 5000,
      maxAttempts: 8,
      failuresToDisable: 5,
      concurrency: 8,
      orgConcurrency: 2,
    });
    expect(loadGatewayConfig({ ...env, WEBHOOK_ALLOWED_HOSTS: 'Hooks.internal:8443' }).webhooks.allowedHosts).toEqual(['hooks.internal:8443']);
    expect(() => loadGatewayConfig({ ...env, WEBHOOK_ALLOWED_HOSTS: 'hooks.internal' })).toThrow(
      'WEBHOOK_ALLOWED_HOSTS must list host:port pairs separated by commas ("hooks.internal" is not one)',
    );
    expect(() => loadGatewayConfig({ ...env, WEBHOOK_CONCURRENCY: '4', WEBHOOK_ORG_CONCURRENCY: '4' })).toThrow(/WEBHOOK_ORG_CONCURRENCY \(4\) must be below/);
    expect(() => loadGatewayConfig({ ...env, WEBHOOK_MAX_ATTEMPTS: '0' })).toThrow(/WEBHOOK_MAX_ATTEMPTS/);
  });

  it('should bound imports in flight, in all and per caller, refusing a bound below one', () => {
    expect(loadGatewayConfig({ ...env, IMPORT_MAX_IN_FLIGHT: '8', IMPORT_MAX_IN_FLIGHT_PER_CALLER: '3' }).import).toMatchObject({
      maxInFlight: 8,
      maxInFlightPerCaller: 3,
    });
    expect(() => loadGatewayConfig({ ...env, IMPORT_MAX_IN_FLIGHT: '0' })).toThrow(/IMPORT_MAX_IN_FLIGHT/);
    expect(() => loadGatewayConfig({ ...env, IMPORT_MAX_IN_FLIGHT_PER_CALLER: 'two' })).toThrow(/IMPORT_MAX_IN_FLIGHT_PER_CALLER/);
  });
});
