export * from './data-source-options.js';
export * from './database.module.js';
export * from './locked-migrations.js';
export * from './wait-for-database.js';
export * from './owner-only.js';
export * from './periodic-jobs.js';
export * from './replica-leases.js';
