// The one lease loop behind both queues, jobs (drivers/local.ts) and webhook deliveries
// (lib/webhooks/delivery-runner.ts): each queue says how it claims due rows under its lease, runs one and
// hands back what it still holds; this loop decides when to claim and keeps the slots.
//
// - Wake-ups: the queue's in-process signal, `LISTEN <channel>` on a connection of its own (PostgreSQL;
//   reconnected with backoff when it drops, and one look for work once it listens again), a timer for the
//   next due row when the queue can say when that is, and a poll as the safety net.
// - Claims: one pump at a time; a wake-up during a pump makes it look again once it ends, so none is lost.
// - `stop()`: no new claims; what runs finishes (the queue may abort what can be aborted), then the queue
//   hands its claims back so another process takes them at once instead of after the lease.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import pg from "pg";

/** What one claim took. */
export interface Claim<T> {
  rows: T[];
  /** When it looked, by the database's clock (epoch milliseconds): what `msUntilNextDue` is asked from. */
  lookedAt?: number;
}

export interface LeaseLoopOptions<T> {
  /** Rows run at once. */
  concurrency: number;
  /** Claims up to `limit` due rows under this loop's lease; none when nothing is due. */
  claim: (limit: number) => Promise<Claim<T>>;
  /** Runs one claimed row; its slot is free again when this settles. */
  run: (row: T) => Promise<void>;
  /** At stop, once nothing runs: hands back the claims this owner still holds. */
  handBack: () => Promise<void>;
  /**
   * Milliseconds until the next row falls due (a retry, an expired lease), null for none known: those due after
   * `since`, when the loop's last claim looked (a row falling due since then, which that claim missed, is due now),
   * not those due before it, which the claim passed over (held back by a cap or a kept slot: a slot that frees
   * wakes the loop). `since` is the database's time, not this process's: the two queries reach the database after
   * different waits, and a row falling due between the claim and a later-measured look back would be lost.
   */
  msUntilNextDue?: (since: number) => Promise<number | null>;
  /** Safety-net poll. */
  pollMs: number;
  /** `LISTEN` on this channel at this PostgreSQL URL (null: not at all, as with PGlite). */
  listen: { channel: string; url: string | null };
  /** In-process wake-ups: subscribes `wake` and returns the unsubscribe. */
  subscribe?: (wake: () => void) => () => void;
  /**
   * At stop: aborts the running rows that may be aborted without losing work (`"interruptible"`), and, past the
   * stop's timeout, all of them (`"all"`). Without it, a stop past its timeout hands back without waiting more.
   */
  abort?: (which: "interruptible" | "all") => void;
  /** Keep the process alive while the loop runs (a worker process). Default false. */
  keepAlive?: boolean;
  log: (line: string) => void;
}

export interface LeaseLoop {
  /** Rows running now. */
  readonly running: number;
  /** Claims now, if there is room. */
  wake(): void;
  /** Starts the wake-ups; resolves once it listens (when it can) and has looked for work once. */
  start(): Promise<void>;
  /** Stops claiming, lets running rows finish (up to `timeoutMs`), hands back, stops listening. */
  stop(timeoutMs: number): Promise<void>;
}

/** What a runner writes as `leaseOwner`: host, process and a random part (two runners in one process differ). */
export function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How soon a claim that failed is tried again. */
const CLAIM_RETRY_MS = 1_000;

/** After a stop's timeout has aborted everything, how long the aborted rows get to write themselves back. */
const ABORTED_GRACE_MS = 5_000;

export function createLeaseLoop<T>(options: LeaseLoopOptions<T>): LeaseLoop {
  const concurrency = Math.max(1, options.concurrency);
  const active = new Set<Promise<void>>();
  let stopping = false;
  let stopped: Promise<void> | undefined;
  let pumping: Promise<void> | undefined;
  /** Set and cleared synchronously (a pump with nothing to await ends before `pumping` is even assigned). */
  let inPump = false;
  let pumpAgain = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let dueTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  const listener = options.listen.url
    ? new Listener(options.listen.url, options.listen.channel, () => wake(), options.log)
    : undefined;

  function wake(): void {
    if (stopping) return;
    if (inPump) {
      pumpAgain = true;
      return;
    }
    inPump = true;
    pumping = pump();
  }

  async function pump(): Promise<void> {
    try {
      do {
        pumpAgain = false;
        let lookedAt: number | undefined;
        while (!stopping && active.size < concurrency) {
          let claimed: Claim<T>;
          try {
            claimed = await options.claim(concurrency - active.size);
          } catch (error) {
            options.log(`claim failed: ${describe(error)}`);
            retryClaimSoon();
            return;
          }
          lookedAt = claimed.lookedAt;
          if (claimed.rows.length === 0) break;
          claimed.rows.forEach(launch);
        }
        if (!stopping && active.size < concurrency && lookedAt !== undefined) await armDueTimer(lookedAt);
      } while (pumpAgain && !stopping);
    } finally {
      // In the same synchronous step as the last look at pumpAgain: a wake-up between the two (a settled row's,
      // which can come in the same tick as the pump's last answer) would otherwise find a pump that had already
      // ended and be lost until the next poll.
      inPump = false;
    }
  }

  /** After a claim that failed (the database restarting, a busy pool): another look soon, not at the next poll. */
  function retryClaimSoon(): void {
    if (stopping) return;
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = setTimeout(wake, Math.min(CLAIM_RETRY_MS, options.pollMs));
    dueTimer.unref?.();
  }

  /** Wakes up when the next row falls due, if that is before the next poll. */
  async function armDueTimer(since: number): Promise<void> {
    if (!options.msUntilNextDue) return;
    let ms: number | null;
    try {
      ms = await options.msUntilNextDue(since);
    } catch (error) {
      options.log(`could not read the next due time: ${describe(error)}`);
      return;
    }
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = undefined;
    if (ms === null || ms >= options.pollMs || stopping) return;
    dueTimer = setTimeout(wake, Math.ceil(ms) + 5);
    dueTimer.unref?.();
  }

  function launch(row: T): void {
    const task: Promise<void> = options
      .run(row)
      .catch((error: unknown) => options.log(`run failed: ${describe(error)}`))
      .finally(() => {
        active.delete(task);
        wake();
      });
    active.add(task);
  }

  async function shutdown(timeoutMs: number): Promise<void> {
    stopping = true;
    if (pollTimer) clearInterval(pollTimer);
    if (dueTimer) clearTimeout(dueTimer);
    unsubscribe?.();
    await pumping;
    options.abort?.("interruptible");
    const timedOut = !(await settledWithin(timeoutMs));
    if (timedOut) {
      options.log(`stop: ${active.size} still running after ${timeoutMs} ms${options.abort ? "; aborting them" : ""}`);
      if (options.abort) {
        options.abort("all");
        await settledWithin(ABORTED_GRACE_MS);
      }
    }
    try {
      await options.handBack();
    } catch (error) {
      options.log(`stop: could not hand claims back (their leases expire): ${describe(error)}`);
    }
    await listener?.close();
  }

  /** Whether every running row settled within `ms`. */
  async function settledWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      Promise.all(active).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
    clearTimeout(timer);
    return settled;
  }

  return {
    get running() {
      return active.size;
    },
    wake,
    async start() {
      if (options.subscribe) unsubscribe = options.subscribe(wake);
      pollTimer = setInterval(wake, options.pollMs);
      if (!options.keepAlive) pollTimer.unref?.();
      const listening = listener?.start();
      // Expired leases of dead runners are recovered by the same claim.
      wake();
      await Promise.all([listening, pumping]);
    },
    stop(timeoutMs) {
      stopped ??= shutdown(timeoutMs);
      return stopped;
    },
  };
}

/** A dedicated connection LISTENing on one channel; reconnects with backoff when it drops. */
class Listener {
  private client: pg.Client | undefined;
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onNotify: () => void,
    private readonly log: (line: string) => void,
  ) {}

  async start(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log(`LISTEN connection lost${error ? ` (${error.message})` : ""}; reconnecting in ${this.retryMs} ms`);
      this.scheduleReconnect();
    };
    client.on("notification", () => this.onNotify());
    client.on("error", lost);
    client.on("end", () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.retryMs = 500;
      // Anything queued while we were not listening.
      this.onNotify();
    } catch (error) {
      if (this.client === client) {
        this.client = undefined;
        client.end().catch(() => {});
        if (!this.closed) {
          this.log(`could not LISTEN (${describe(error)}); retrying in ${this.retryMs} ms, polling meanwhile`);
          this.scheduleReconnect();
        }
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.retryTimer || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.start();
    }, this.retryMs);
    this.retryTimer.unref?.();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}
