/** `interactive`: someone waits for the answer; `background`: no one does (a lint after a registration). */
export type Lane = 'interactive' | 'background';

export interface LaneLimits {
  /** Tasks of one tenant that may wait in the lane; one more is refused at once. */
  queuePerTenant: number;
  /** Tasks of all tenants that may wait in the lane; one more is refused at once. */
  queue: number;
  /** A task not started within this long is refused, never run. */
  maxWaitMs: number;
}

export interface FairQueueOptions {
  /** Tasks running at once (the pool's threads). */
  slots: number;
  /** Tasks of one tenant running at once. */
  slotsPerTenant: number;
  interactive: LaneLimits;
  /** Background tasks also run at most `slots` of them at once, and only when no interactive task can start. */
  background: LaneLimits & { slots: number };
  /** What a task is taken to run before any has (for `retryAfterSeconds`). */
  expectedRunMs?: number;
}

/** Why a task was refused: its tenant's queue is full, everyone's is, or it waited too long. */
export type BusyReason = 'tenant-queue' | 'queue' | 'wait';

/** The task is refused, never run: try again in `retryAfterSeconds` (what the queue ahead is expected to take). */
export class FairQueueBusyError extends Error {
  override name = 'FairQueueBusyError';

  constructor(
    readonly reason: BusyReason,
    readonly retryAfterSeconds: number,
  ) {
    super(`Busy (${reason}): try again in ${retryAfterSeconds} s`);
  }
}

/** Frees the slot a task was given; once only, later calls do nothing. */
export type Release = () => void;

interface Waiter {
  tenant: TenantState;
  lane: Lane;
  grant: (release: Release) => void;
  refuse: (error: Error) => void;
  timer: NodeJS.Timeout;
}

interface TenantState {
  name: string;
  running: number;
  waiting: Record<Lane, Waiter[]>;
}

const DEFAULT_EXPECTED_RUN_MS = 1000;
/** Weight of the newest running time in the running average. */
const RUN_MS_WEIGHT = 0.2;
const MAX_RETRY_AFTER_SECONDS = 300;

/**
 * Turns on a pool of slots (threads) shared by tenants (orgs), so that no tenant holds up another:
 * a FIFO queue per tenant and lane, the tenants served in turn (round robin), at most
 * `slotsPerTenant` slots per tenant, interactive tasks before background ones, and a task is given
 * a slot only when one is free (the pool behind never queues, so a task's time limit can count its
 * running time only). Waiting is bounded per tenant, in all and in time: past a bound a task is
 * refused (`FairQueueBusyError`), never run.
 *
 * With `slotsPerTenant` below `slots`, a tenant is held to it even when the pool is otherwise
 * idle: a running task cannot be taken back (it runs until it ends, up to its time limit), so a
 * tenant allowed every slot of an idle pool would make the next tenant to arrive wait for one of
 * its tasks to end, seconds to a minute: the stall the bound exists to prevent. A lone tenant pays
 * with the slot it leaves free.
 */
export class FairQueue {
  private readonly tenants = new Map<string, TenantState>();
  /** Per lane, the tenants with tasks waiting in it, the next to serve first. */
  private readonly turns: Record<Lane, TenantState[]> = { interactive: [], background: [] };
  private readonly waitingIn: Record<Lane, number> = { interactive: 0, background: 0 };
  private readonly runningIn: Record<Lane, number> = { interactive: 0, background: 0 };
  /** Running average of a task's running time, per lane. */
  private readonly runMs: Record<Lane, number>;
  private closedBy: Error | undefined;

  constructor(private readonly options: FairQueueOptions) {
    const expected = options.expectedRunMs ?? DEFAULT_EXPECTED_RUN_MS;
    this.runMs = { interactive: expected, background: expected };
  }

  /** Tasks running and waiting now. */
  get size(): { running: number; waiting: number } {
    return { running: this.runningIn.interactive + this.runningIn.background, waiting: this.waitingIn.interactive + this.waitingIn.background };
  }

  /** A slot for one task of `tenant`: at once when it may start, or when its turn comes. */
  acquire(tenant: string, lane: Lane = 'interactive'): Promise<Release> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const state = this.tenantState(tenant);
    // Whenever a slot is free, no task that may take it is left waiting (`dispatch`): one that may start now has no one ahead of it.
    if (state.waiting[lane].length === 0 && this.mayStart(state, lane)) return Promise.resolve(this.start(state, lane));
    const limits = this.options[lane];
    if (this.waitingIn[lane] >= limits.queue) return this.refuseNow(state, 'queue', this.estimateSeconds(lane, this.waitingIn[lane], this.laneSlots(lane)));
    if (state.waiting[lane].length >= limits.queuePerTenant)
      return this.refuseNow(state, 'tenant-queue', this.estimateSeconds(lane, state.waiting[lane].length, this.share(lane)));
    return new Promise<Release>((grant, refuse) => {
      const waiter: Waiter = { tenant: state, lane, grant, refuse, timer: setTimeout(() => this.expire(waiter), limits.maxWaitMs) };
      waiter.timer.unref();
      if (state.waiting[lane].push(waiter) === 1) this.turns[lane].push(state);
      this.waitingIn[lane] += 1;
    });
  }

  /** Refuses every task waiting, and any later one, with `error`; tasks running keep their slots. */
  close(error: Error): void {
    this.closedBy = error;
    for (const lane of ['interactive', 'background'] as const) {
      for (const state of this.turns[lane].splice(0)) {
        for (const waiter of state.waiting[lane].splice(0)) {
          clearTimeout(waiter.timer);
          waiter.refuse(error);
        }
      }
      this.waitingIn[lane] = 0;
    }
  }

  private tenantState(name: string): TenantState {
    let state = this.tenants.get(name);
    if (!state) {
      state = { name, running: 0, waiting: { interactive: [], background: [] } };
      this.tenants.set(name, state);
    }
    return state;
  }

  private forgetIfIdle(state: TenantState): void {
    if (state.running === 0 && state.waiting.interactive.length === 0 && state.waiting.background.length === 0) this.tenants.delete(state.name);
  }

  private mayStart(state: TenantState, lane: Lane): boolean {
    const running = this.runningIn.interactive + this.runningIn.background;
    if (running >= this.options.slots || state.running >= this.options.slotsPerTenant) return false;
    return lane === 'interactive' || this.runningIn.background < this.options.background.slots;
  }

  private start(state: TenantState, lane: Lane): Release {
    state.running += 1;
    this.runningIn[lane] += 1;
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.running -= 1;
      this.runningIn[lane] -= 1;
      this.runMs[lane] += RUN_MS_WEIGHT * (performance.now() - started - this.runMs[lane]);
      this.forgetIfIdle(state);
      this.dispatch();
    };
  }

  /** Gives free slots to waiting tasks: interactive ones first, each lane's tenants in turn. */
  private dispatch(): void {
    for (let waiter = this.next('interactive') ?? this.next('background'); waiter; waiter = this.next('interactive') ?? this.next('background')) {
      clearTimeout(waiter.timer);
      waiter.grant(this.start(waiter.tenant, waiter.lane));
    }
  }

  /**
   * The next task of the lane's tenant that holds the fewest slots among those that may start one
   * (the first in turn order of those); its tenant's turn goes to the back. The fewest first: a
   * tenant that arrives while another holds every slot gets the first one freed.
   */
  private next(lane: Lane): Waiter | undefined {
    const turns = this.turns[lane];
    let at = -1;
    turns.forEach((state, index) => {
      if (this.mayStart(state, lane) && (at < 0 || state.running < turns[at].running)) at = index;
    });
    if (at < 0) return undefined;
    const [state] = turns.splice(at, 1);
    const waiter = state.waiting[lane].shift()!;
    if (state.waiting[lane].length > 0) turns.push(state);
    this.waitingIn[lane] -= 1;
    return waiter;
  }

  /** A task that waited `maxWaitMs` leaves the queue, refused. */
  private expire(waiter: Waiter): void {
    const { tenant: state, lane } = waiter;
    const queue = state.waiting[lane];
    const ahead = queue.indexOf(waiter);
    if (ahead < 0) return;
    queue.splice(ahead, 1);
    this.waitingIn[lane] -= 1;
    if (queue.length === 0) this.turns[lane].splice(this.turns[lane].indexOf(state), 1);
    this.forgetIfIdle(state);
    waiter.refuse(new FairQueueBusyError('wait', this.estimateSeconds(lane, ahead, this.share(lane))));
  }

  private refuseNow(state: TenantState, reason: BusyReason, retryAfterSeconds: number): Promise<Release> {
    this.forgetIfIdle(state);
    return Promise.reject(new FairQueueBusyError(reason, retryAfterSeconds));
  }

  private laneSlots(lane: Lane): number {
    return lane === 'background' ? Math.min(this.options.slots, this.options.background.slots) : this.options.slots;
  }

  /** The slots a tenant can count on now: its bound, or its turn's share of the slots when more tenants have work. */
  private share(lane: Lane): number {
    const even = Math.floor(this.options.slots / Math.max(1, this.tenants.size));
    return Math.max(1, Math.min(this.options.slotsPerTenant, this.laneSlots(lane), even));
  }

  /** Seconds until `ahead` tasks and one more have run on `slots` slots, at the lane's average running time. */
  private estimateSeconds(lane: Lane, ahead: number, slots: number): number {
    const seconds = Math.ceil(((ahead + 1) * this.runMs[lane]) / slots / 1000);
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds));
  }
}
