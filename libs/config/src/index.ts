export * from './app-config.js';
export * from './env.js';
export * from './port.js';
export * from './redis.js';
export * from './redis-shutdown.js';
export * from './with-timeout.js';
