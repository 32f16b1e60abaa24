import { CreateRegistry1764680000000 } from './1764680000000-CreateRegistry.js';
import { IndexReconciliation1764680000001 } from './1764680000001-IndexReconciliation.js';

export const gatewayMigrations = [CreateRegistry1764680000000, IndexReconciliation1764680000001];
