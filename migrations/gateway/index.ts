import { CreateRegistry1764680000000 } from './1764680000000-CreateRegistry.js';
import { IndexReconciliation1764680000001 } from './1764680000001-IndexReconciliation.js';
import { ApiKinds1764680000002 } from './1764680000002-ApiKinds.js';
import { ApiLabels1764680000003 } from './1764680000003-ApiLabels.js';
import { ApiVersions1764680000004 } from './1764680000004-ApiVersions.js';
import { ApiSources1764680000005 } from './1764680000005-ApiSources.js';
import { ReplicaLeases1764680000006 } from './1764680000006-ReplicaLeases.js';
import { TreeImports1764680000007 } from './1764680000007-TreeImports.js';
import { ConsumersAndNotifications1764680000008 } from './1764680000008-ConsumersAndNotifications.js';

export const gatewayMigrations = [
  CreateRegistry1764680000000,
  IndexReconciliation1764680000001,
  ApiKinds1764680000002,
  ApiLabels1764680000003,
  ApiVersions1764680000004,
  ApiSources1764680000005,
  ReplicaLeases1764680000006,
  TreeImports1764680000007,
  ConsumersAndNotifications1764680000008,
];
