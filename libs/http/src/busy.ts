import { ServiceUnavailableException } from '@nestjs/common';

/**
 * 503 with `Retry-After`: the service is up but at its limit, and the same request will likely
 * succeed shortly. Clients and load balancers back off instead of hammering. Expected under
 * load, so logged at debug level only (the metrics count them).
 */
export class ServiceBusyException extends ServiceUnavailableException {
  constructor(
    detail: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(detail);
  }
}
