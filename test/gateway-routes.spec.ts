import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { GATEWAY_ROUTES } from '#contracts';
import { DevLoginController } from '../apps/gateway/src/auth/dev-login.controller.js';
import { HealthController } from '../apps/gateway/src/health/health.controller.js';
import { ImportController } from '../apps/gateway/src/import/import.controller.js';
import { KindsController } from '../apps/gateway/src/kinds/kinds.controller.js';
import { AiProxyController } from '../apps/gateway/src/proxy/ai-proxy.controller.js';
import { ApiOperationsController } from '../apps/gateway/src/proxy/api-operations.controller.js';
import { FeedbackController } from '../apps/gateway/src/proxy/feedback.controller.js';
import { ApiVersionsController } from '../apps/gateway/src/registry/api-versions.controller.js';
import { RegistryController } from '../apps/gateway/src/registry/registry.controller.js';
import { TreeImportController } from '../apps/gateway/src/tree-import/tree-import.controller.js';
import { WebhooksController } from '../apps/gateway/src/webhooks/webhooks.controller.js';
import { ConsumersController } from '../apps/gateway/src/registry/consumers.controller.js';
import { NotificationsController } from '../apps/gateway/src/notifications/notifications.controller.js';

const CONTROLLERS = [
  DevLoginController,
  HealthController,
  ImportController,
  KindsController,
  AiProxyController,
  ApiOperationsController,
  FeedbackController,
  ApiVersionsController,
  RegistryController,
  TreeImportController,
  WebhooksController,
  ConsumersController,
  NotificationsController,
];

/** `METHOD /path` of every handler the controllers mount. */
function mounted(): string[] {
  return CONTROLLERS.flatMap((controller) =>
    Object.values(Object.getOwnPropertyDescriptors(controller.prototype))
      .map(({ value }) => value as object)
      .filter((handler) => typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined)
      .map((handler) => `${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]} ${String(Reflect.getMetadata(PATH_METADATA, handler))}`),
  );
}

describe('GATEWAY_ROUTES', () => {
  it('is what the public controllers mount: each route once, from the table alone', () => {
    // A controller prefix would put its handlers elsewhere than the table says.
    expect(CONTROLLERS.map((controller) => Reflect.getMetadata(PATH_METADATA, controller))).toEqual(CONTROLLERS.map(() => '/'));
    const declared = Object.values(GATEWAY_ROUTES).map((route) => `${route.method} ${route.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect(mounted().sort()).toEqual(declared.sort());
  });
});
