export * from './busy.js';
export * from './body-depth.js';
export * from './configure-app.js';
export * from './problem.filter.js';
export * from './request-id.js';
export * from './metrics.js';
export * from './public.js';
export * from './validation.js';
