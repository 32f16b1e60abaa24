import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ApiDeletedEvent, ApiRegisteredEvent, ApiUpdatedEvent } from '#contracts';
import { IndexingProducer } from './indexing.producer.js';

type RegistryEvent = ApiRegisteredEvent | ApiUpdatedEvent | ApiDeletedEvent;

/** Registry changes go to the indexing queue at once; the producer's sweep covers failures. */
@Injectable()
export class IndexingListener {
  constructor(private readonly producer: IndexingProducer) {}

  @OnEvent(ApiRegisteredEvent.eventName, { async: true, suppressErrors: true })
  @OnEvent(ApiUpdatedEvent.eventName, { async: true, suppressErrors: true })
  @OnEvent(ApiDeletedEvent.eventName, { async: true, suppressErrors: true })
  async onRegistryChange(event: RegistryEvent): Promise<void> {
    await this.producer.deliver(event.apiId);
  }
}
