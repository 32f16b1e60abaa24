export * from './data-source-options.js';
export * from './database.module.js';
