/** Registry events; listeners only enqueue. */
export class ApiRegisteredEvent {
  static readonly eventName = 'api.registered';
  constructor(readonly apiId: string) {}
}

export class ApiUpdatedEvent {
  static readonly eventName = 'api.updated';
  constructor(readonly apiId: string) {}
}

export class ApiDeletedEvent {
  static readonly eventName = 'api.deleted';
  constructor(readonly apiId: string) {}
}
