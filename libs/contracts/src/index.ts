export * from './api-events.js';
export * from './api-record.js';
export * from './indexing-job.js';
export * from './indexing-status.js';
export * from './internal-headers.js';
export * from './problem.js';
export * from './reindex.js';
export * from './search.js';
