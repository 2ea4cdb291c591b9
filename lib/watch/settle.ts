// When a file has stopped growing: its size and modification time the same in two looks at least `settleMs`
// apart (a slow copy over a network or a sync client still writing changes one or the other). An empty file is
// never settled (a copy that has only created it). Pure: the caller reads the folder and passes the clock.

export interface Look {
  size: number;
  mtimeMs: number;
}

interface Seen extends Look {
  /** When this size and time were first seen. */
  since: number;
}

export class SettleTracker {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly settleMs: number) {}

  /** Records a look at `key`; true once it has been the same since at least `settleMs` ago (never at first sight). */
  observe(key: string, look: Look, now: number): boolean {
    const before = this.seen.get(key);
    if (!before || before.size !== look.size || before.mtimeMs !== look.mtimeMs) {
      this.seen.set(key, { ...look, since: now });
      return false;
    }
    return look.size > 0 && now - before.since >= this.settleMs && now > before.since;
  }

  /** Starts `key` over (it changed while it was being read). */
  reset(key: string): void {
    this.seen.delete(key);
  }

  /** Forgets every key not in `present` (files gone or renamed since the last look). */
  keepOnly(present: ReadonlySet<string>): void {
    for (const key of this.seen.keys()) if (!present.has(key)) this.seen.delete(key);
  }
}
