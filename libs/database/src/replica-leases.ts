import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';

/**
 * Periodic jobs that run on one replica at a time (reconciliation, outbox sweeps, refresh rounds,
 * purges): the replica that holds a job's lease leads it, and keeps the lease for as long as it
 * keeps running rounds; the others skip their rounds. A leader that stops (crash, scale-in)
 * hands the job on once its lease expires, or at once when it shuts down cleanly.
 *
 * A row per job, not an advisory lock: a session lock is lost or leaked behind PgBouncer in
 * transaction mode, and a row needs no connection of its own (embedded PGlite has one). Times
 * are the database's, so replicas' clocks do not matter. The jobs stay idempotent: a leader
 * that stalls past its lease may overlap one round with the next leader's.
 */
/** Rounds a leader may miss before another replica takes its job over. */
const LEASE_ROUNDS = 3;

export class ReplicaLeases {
  /** This process, as the holder of its leases (never reused: a restarted replica queues behind its old self's lease). */
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly held = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    /** The `leases` table of the app's schema. */
    private readonly table: string,
  ) {}

  /**
   * Runs `work` if this replica leads `job` (taking the lead if nobody holds it, or its holder's
   * lease expired): `false` when another replica leads. The lease lasts `LEASE_ROUNDS` of the
   * job's rounds (one every `roundEveryMs`), and is renewed every round's length while `work` runs.
   */
  async runIfLeader(job: string, roundEveryMs: number, work: () => Promise<void>): Promise<boolean> {
    const ttlMs = LEASE_ROUNDS * roundEveryMs;
    if (!(await this.lead(job, ttlMs))) return false;
    const renew = setInterval(() => void this.lead(job, ttlMs).catch(() => undefined), roundEveryMs);
    renew.unref();
    try {
      await work();
    } finally {
      clearInterval(renew);
    }
    return true;
  }

  /** Gives up this replica's leases, so the next leader need not wait for them to expire. */
  async releaseAll(): Promise<void> {
    if (this.held.size === 0) return;
    await this.dataSource.query(`DELETE FROM ${this.table} WHERE job = ANY($1) AND holder = $2`, [[...this.held], this.holder]);
    this.held.clear();
  }

  /** Takes or renews the lease; one statement, so two replicas taking it at once cannot both win. */
  private async lead(job: string, ttlMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO ${this.table} AS lease (job, holder, expires_at)
       VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
       ON CONFLICT (job) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE lease.holder = excluded.holder OR lease.expires_at < clock_timestamp()
       RETURNING job`,
      [job, this.holder, ttlMs / 1000],
    );
    if (rows.length > 0) this.held.add(job);
    else this.held.delete(job);
    return rows.length > 0;
  }
}
