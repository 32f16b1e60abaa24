import { Body, Controller, HttpCode, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  GATEWAY_ROUTES,
  NOTIFICATION_LIMITS,
  type WebhookCreated,
  type WebhookDeliveryList,
  type WebhookList,
  type WebhookRecord,
  type WebhookTestResult,
} from '#contracts';
import { Route } from '#http';
import { ApiProblems, AUTHENTICATED_ERRORS } from '../docs/api-docs.decorators.js';
import { WebhookCreatedDoc, WebhookDeliveryListDoc, WebhookListDoc, WebhookRecordDoc, WebhookTestResultDoc } from '../docs/openapi-models.js';
import { RequireRole } from '../auth/auth.decorators.js';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { WebhookListQueryDto, WebhookRegistrationDto } from './webhooks.dto.js';
import { WebhooksService } from './webhooks.service.js';

@ApiTags('Webhooks')
@ApiBearerAuth()
@ApiProblems(...AUTHENTICATED_ERRORS)
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Route(GATEWAY_ROUTES.createWebhook)
  @RequireRole('publisher')
  @ApiOperation({
    summary: "Register a webhook for an org's events (publisher); the answer holds its signing secret, shown this once",
    description:
      'Each event is POSTed as JSON, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried with backoff until the receiver answers 2xx. ' +
      'Filters: `events` (types), `apiIds` (APIs of the org), `teamNames` (any case); each absent or empty lets everything through. ' +
      `At most ${NOTIFICATION_LIMITS.maxWebhooksPerOrg} per org (409)`,
  })
  @ApiCreatedResponse({ type: WebhookCreatedDoc })
  @ApiProblems(400, 404, 409)
  create(@CurrentCaller() caller: Caller, @Body() body: WebhookRegistrationDto): Promise<WebhookCreated> {
    return this.webhooks.create(caller, body);
  }

  @Route(GATEWAY_ROUTES.listWebhooks)
  @ApiOperation({ summary: "An org's webhooks, each with whether it was disabled and why (never its secret)" })
  @ApiOkResponse({ type: WebhookListDoc })
  @ApiProblems(400)
  list(@CurrentCaller() caller: Caller, @Query() query: WebhookListQueryDto): Promise<WebhookList> {
    return this.webhooks.list(caller, query.orgId);
  }

  @Route(GATEWAY_ROUTES.deleteWebhook)
  @HttpCode(204)
  @RequireRole('publisher')
  @ApiOperation({ summary: 'Delete a webhook and its deliveries (publisher)' })
  @ApiNoContentResponse()
  @ApiProblems(404)
  remove(@CurrentCaller() caller: Caller, @Param('webhookId') webhookId: string): Promise<void> {
    return this.webhooks.remove(caller, webhookId);
  }

  @Route(GATEWAY_ROUTES.enableWebhook)
  @HttpCode(200)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Send to a disabled webhook again (publisher): its failures count from zero',
    description: 'Deliveries failed while it was disabled stay failed; events from now on are sent',
  })
  @ApiOkResponse({ type: WebhookRecordDoc })
  @ApiProblems(400, 404)
  enable(@CurrentCaller() caller: Caller, @Param('webhookId') webhookId: string): Promise<WebhookRecord> {
    return this.webhooks.enable(caller, webhookId);
  }

  @Route(GATEWAY_ROUTES.webhookDeliveries)
  @ApiOperation({
    summary: `A webhook's deliveries, newest first (the last ${NOTIFICATION_LIMITS.deliveriesListed}), each with its tries: time, status code, duration, error`,
  })
  @ApiOkResponse({ type: WebhookDeliveryListDoc })
  @ApiProblems(404)
  deliveries(@CurrentCaller() caller: Caller, @Param('webhookId') webhookId: string): Promise<WebhookDeliveryList> {
    return this.webhooks.deliveries(caller, webhookId);
  }

  @Route(GATEWAY_ROUTES.testWebhook)
  @HttpCode(200)
  @RequireRole('publisher')
  @ApiOperation({
    summary: 'Send one signed `webhook.test` event now (publisher) and say what the receiver answered',
    description: 'Through the same signing and address guard as deliveries; not retried and not recorded among the deliveries',
  })
  @ApiOkResponse({ type: WebhookTestResultDoc })
  @ApiProblems(400, 404)
  test(@CurrentCaller() caller: Caller, @Param('webhookId') webhookId: string): Promise<WebhookTestResult> {
    return this.webhooks.test(caller, webhookId);
  }
}
