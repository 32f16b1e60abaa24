import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '#config';
import { ServiceBusyException } from '#http';
import { GATEWAY_CONFIG } from '../gateway.constants.js';

/** Retry-After of a 429: the caller's own imports end within seconds (a 10 MB spec is fetched and checked in about 2 s). */
export const CALLER_RETRY_AFTER_SECONDS = 5;
/** Retry-After of a 503: any of the gateway's imports ending frees a slot. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** A slot held for one fetch and its spec check; releasing it twice releases it once. */
export interface ImportSlot {
  release(): void;
}

/** 429 with `Retry-After`: this caller has as many imports in flight as it may. */
export class TooManyImportsException extends HttpException {
  readonly retryAfterSeconds = CALLER_RETRY_AFTER_SECONDS;

  constructor(limit: number) {
    super(`At most ${limit} imports from a URL per caller at once (IMPORT_MAX_IN_FLIGHT_PER_CALLER); retry when one has ended`, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Bounds the URL fetches in flight in this process, each with the spec it may hold (up to
 * SPEC_MAX_BYTES) until its check on a spec thread is done: IMPORT_MAX_IN_FLIGHT in all and
 * IMPORT_MAX_IN_FLIGHT_PER_CALLER per token subject. A person past a bound is refused at once,
 * before a byte is fetched (429 for their own, 503 for the gateway's). Background refreshes take
 * a slot only when one stays free for people, or none is in use: they never wait for one.
 */
@Injectable()
export class ImportSlots {
  private inFlight = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** A slot for `sub`'s fetch, or a 429 / 503 at once. */
  acquire(sub: string): ImportSlot {
    const { maxInFlight, maxInFlightPerCaller } = this.config.import;
    if ((this.byCaller.get(sub) ?? 0) >= maxInFlightPerCaller) throw new TooManyImportsException(maxInFlightPerCaller);
    if (this.inFlight >= maxInFlight) {
      throw new ServiceBusyException(
        `The gateway is fetching ${maxInFlight} specs from URLs already (IMPORT_MAX_IN_FLIGHT); retry shortly`,
        BUSY_RETRY_AFTER_SECONDS,
      );
    }
    return this.take(sub);
  }

  /** A slot for background work, only if one stays free for people afterwards or nothing is in flight; `undefined` otherwise. */
  acquireSpare(): ImportSlot | undefined {
    if (this.inFlight > 0 && this.inFlight + 1 >= this.config.import.maxInFlight) return undefined;
    return this.take(undefined);
  }

  /** Fetches in flight now: in all, or of one caller. */
  count(sub?: string): number {
    return sub === undefined ? this.inFlight : (this.byCaller.get(sub) ?? 0);
  }

  private take(sub: string | undefined): ImportSlot {
    this.inFlight += 1;
    if (sub !== undefined) this.byCaller.set(sub, (this.byCaller.get(sub) ?? 0) + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.inFlight -= 1;
        if (sub === undefined) return;
        const left = this.byCaller.get(sub)! - 1;
        // An idle caller leaves no entry: the map holds only callers with fetches in flight.
        if (left === 0) this.byCaller.delete(sub);
        else this.byCaller.set(sub, left);
      },
    };
  }
}
