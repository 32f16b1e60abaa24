export * from './chunk-spec.js';
export * from './clean-text.js';
export * from './load-spec.js';
export * from './read-spec.js';
export * from './spec-error.js';
export * from './operations.js';
export * from './spec-limits.js';
