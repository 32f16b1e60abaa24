import { describe, expect, it } from '@jest/globals';
import { loadAiConfig } from './app-config.js';
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
});
