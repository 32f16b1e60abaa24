export * from './embedding-provider.js';
export * from './embedding-provider-factories.js';
export * from './embeddings.module.js';
export * from './local-use.provider.js';
export * from './openai.provider.js';
export * from './hash.provider.js';
