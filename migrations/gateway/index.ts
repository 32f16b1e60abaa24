import { CreateRegistry1764680000000 } from './1764680000000-CreateRegistry.js';

export const gatewayMigrations = [CreateRegistry1764680000000];
