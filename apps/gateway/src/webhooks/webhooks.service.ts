import { randomUUID } from 'node:crypto';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  NOTIFICATION_LIMITS,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookList,
  type WebhookRecord,
  type WebhookTestResult,
} from '#contracts';
import type { GatewayConfig } from '#config';
import { type Caller } from '../auth/caller.js';
import { assertOrgMember } from '../auth/org-access.js';
import { GATEWAY_CONFIG } from '../gateway.constants.js';
import { httpUrl, isAllowedHost } from '../import/spec-fetcher.js';
import { RegistryService } from '../registry/registry.service.js';
import type { WebhookRegistrationDto } from './webhooks.dto.js';
import { TEST_EVENT_TYPE } from './webhooks.constants.js';
import { type ListedDelivery, WebhooksRepository } from './webhooks.repository.js';
import type { WebhookEntity } from './webhook.entity.js';
import { isInternalAddress, newWebhookSecret } from './webhook-rules.js';
import { WebhookSender } from './webhook-sender.js';

/** Webhooks of an org: registered, listed, deleted, enabled again, their deliveries read, and tried. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly registry: RegistryService,
    private readonly sender: WebhookSender,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async create(caller: Caller, body: WebhookRegistrationDto): Promise<WebhookCreated> {
    assertOrgMember(caller, body.orgId);
    const url = this.receiverUrl(body.url);
    const apiIds = [...new Set(body.apiIds ?? [])];
    if (apiIds.length > 0) {
      const apis = await this.registry.findAllVisible(caller, apiIds);
      const elsewhere = apis.find((api) => api.orgId !== body.orgId);
      if (elsewhere) throw new BadRequestException(`apiIds: API "${elsewhere.id}" is not an API of org "${body.orgId}"`);
    }
    const secret = newWebhookSecret();
    const created = await this.webhooks.create(
      {
        orgId: body.orgId,
        url: url.href,
        events: [...new Set(body.events ?? [])],
        apiIds,
        teamNames: [...new Set((body.teamNames ?? []).map((name) => name.trim()).filter(Boolean))],
        description: body.description?.trim() || null,
        secret,
        createdBy: caller.sub,
      },
      NOTIFICATION_LIMITS.maxWebhooksPerOrg,
    );
    if (!created)
      throw new ConflictException(`Org "${body.orgId}" has ${NOTIFICATION_LIMITS.maxWebhooksPerOrg} webhooks, the most it may have: delete one first`);
    return { ...toRecord(created), secret };
  }

  async list(caller: Caller, orgId: string): Promise<WebhookList> {
    assertOrgMember(caller, orgId);
    return { items: (await this.webhooks.listInOrg(orgId)).map(toRecord) };
  }

  async remove(caller: Caller, webhookId: string): Promise<void> {
    await this.webhooks.delete((await this.findVisible(caller, webhookId)).id);
  }

  async enable(caller: Caller, webhookId: string): Promise<WebhookRecord> {
    return toRecord(await this.webhooks.enable((await this.findVisible(caller, webhookId)).id));
  }

  async deliveries(caller: Caller, webhookId: string): Promise<WebhookDeliveryList> {
    const webhook = await this.findVisible(caller, webhookId);
    return { items: (await this.webhooks.deliveries(webhook.id, NOTIFICATION_LIMITS.deliveriesListed)).map(toDelivery) };
  }

  /** One signed `webhook.test` now, through the same sender and guard as deliveries; recorded nowhere and not retried, a disabled webhook included. */
  async test(caller: Caller, webhookId: string): Promise<WebhookTestResult> {
    const webhook = await this.findVisible(caller, webhookId);
    const eventId = randomUUID();
    const body = JSON.stringify({
      eventId,
      type: TEST_EVENT_TYPE,
      orgId: webhook.orgId,
      timestamp: new Date().toISOString(),
      api: { apiId: '', name: '' },
      data: {},
    });
    const attempt = await this.sender.send({ url: webhook.url, secret: webhook.secret, eventId, body }, 1);
    return { eventId, delivered: !attempt.error, attempt };
  }

  /** A webhook of one of the caller's orgs; another org's is indistinguishable from none (404). */
  private async findVisible(caller: Caller, webhookId: string): Promise<WebhookEntity> {
    const webhook = await this.webhooks.find(webhookId);
    if (!webhook || !caller.orgs.includes(webhook.orgId)) throw new NotFoundException(`Webhook "${webhookId}" not found`);
    return webhook;
  }

  /** http(s), no credentials; a literal internal address only if allowed (a name resolving to one is refused when a delivery connects). */
  private receiverUrl(address: string): URL {
    const url = httpUrl(address.trim());
    if (isInternalAddress(url.hostname) && !isAllowedHost(url, this.config.webhooks.allowedHosts)) {
      throw new BadRequestException(
        'url: loopback, private, link-local and metadata addresses are refused unless WEBHOOK_ALLOWED_HOSTS lists the host and port',
      );
    }
    return url;
  }
}

function toRecord(webhook: WebhookEntity): WebhookRecord {
  return {
    webhookId: webhook.id,
    orgId: webhook.orgId,
    url: webhook.url,
    events: webhook.events,
    apiIds: webhook.apiIds,
    teamNames: webhook.teamNames,
    ...(webhook.description ? { description: webhook.description } : {}),
    createdBy: webhook.createdBy,
    createdAt: new Date(webhook.createdAt).toISOString(),
    ...(webhook.disabledAt ? { disabledAt: new Date(webhook.disabledAt).toISOString() } : {}),
    ...(webhook.disabledReason ? { disabledReason: webhook.disabledReason } : {}),
    consecutiveFailures: webhook.consecutiveFailures,
  };
}

function toDelivery(delivery: ListedDelivery): WebhookDelivery {
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    type: delivery.type,
    ...(delivery.apiId ? { apiId: delivery.apiId } : {}),
    state: delivery.state,
    createdAt: new Date(delivery.createdAt).toISOString(),
    ...(delivery.state === 'pending' && delivery.nextAttemptAt ? { nextAttemptAt: new Date(delivery.nextAttemptAt).toISOString() } : {}),
    attempts: delivery.attempts,
  };
}
