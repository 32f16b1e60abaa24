import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AiConfig } from '#config';
import { METRICS_REGISTRY, ServiceBusyException } from '#http';
import { AI_CONFIG } from '../ai.constants.js';

type Outcome = 'answered' | 'refused' | 'timed_out' | 'failed';

/**
 * Admission control for search: at most SEARCH_CONCURRENCY searches run at once and
 * SEARCH_QUEUE wait for a turn; one more is refused at once (503 + Retry-After), and a search
 * not answered within SEARCH_TIMEOUT_MS (waiting included) is answered 503 then. A flood
 * gets fast refusals instead of a queue that grows until every search times out, and what is
 * admitted still answers quickly. A timed-out search keeps its place until its work has
 * actually ended, so abandoned work never piles up behind the limit.
 */
@Injectable()
export class SearchAdmission {
  private running = 0;
  private readonly waiting: { admit: () => void }[] = [];
  private readonly outcomes: Counter<'outcome'>;
  private readonly inFlight: Gauge;
  private readonly limits: AiConfig['search'];

  constructor(@Inject(AI_CONFIG) config: AiConfig, @Inject(METRICS_REGISTRY) registry: Registry) {
    this.limits = config.search;
    this.outcomes = new Counter({
      name: 'search_requests_total',
      help: 'Searches by outcome: answered, refused at once (limit reached), timed out (SEARCH_TIMEOUT_MS), failed',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.inFlight = new Gauge({
      name: 'search_in_flight',
      help: 'Searches running or waiting for a turn',
      registers: [registry],
      collect: () => this.inFlight.set(this.running + this.waiting.length),
    });
  }

  /** Runs `search` when a turn is free, within the time budget. */
  async run<T>(search: () => Promise<T>): Promise<T> {
    const { concurrency, queue, timeoutMs } = this.limits;
    if (this.running >= concurrency && this.waiting.length >= queue) {
      this.count('refused');
      throw new ServiceBusyException(
        `The search service is at its limit (${concurrency} searches running, ${queue} waiting: SEARCH_CONCURRENCY, SEARCH_QUEUE); try again in a second`,
      );
    }
    const deadline = Date.now() + timeoutMs;
    if (this.running < concurrency) this.running += 1;
    else if (!(await this.turn(deadline))) return this.timedOut();

    // The place passes to the next search waiting, if any.
    const work = search().finally(() => {
      const next = this.waiting.shift();
      if (next) next.admit();
      else this.running -= 1;
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()))));
    let first: T | 'expired';
    try {
      first = await Promise.race([work, expired]);
    } catch (error) {
      this.count('failed');
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (first === 'expired') {
      work.catch(() => undefined);
      return this.timedOut();
    }
    this.count('answered');
    return first;
  }

  /** Waits for a running search to hand over its place; false when the deadline comes first (and leaves the queue). */
  private turn(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const place = {
        admit: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(place), 1);
        resolve(false);
      }, deadline - Date.now());
      this.waiting.push(place);
    });
  }

  private timedOut(): never {
    this.count('timed_out');
    throw new ServiceBusyException(
      `The search did not finish within ${this.limits.timeoutMs / 1000} s (SEARCH_TIMEOUT_MS): the search service is busy; try again shortly`,
      2,
    );
  }

  private count(outcome: Outcome): void {
    this.outcomes.inc({ outcome });
  }
}
