import { CreateIndex1764680000001 } from './1764680000001-CreateIndex.js';

export const aiMigrations = [CreateIndex1764680000001];
