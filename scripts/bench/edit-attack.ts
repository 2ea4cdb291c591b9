// The heaviest correction a free user can send, against the running app: a transcript of 800 segments is
// given one timed word per segment (a small PATCH), then every segment's text is replaced by 2,500 one-letter
// words (a PATCH of ~4 MB, under the 4 MiB bound), so that every segment's retiming diffs 1 word against
// 2,500. Measured: the big save's wall time and status, the app's CPU time meanwhile (the server process and
// its threads, from /proc), and the longest a /health poller waited while it ran, beside the median /health
// of the same run before it (the ratio).
import { readFileSync, readdirSync } from "node:fs";
import pg from "pg";

const SEGMENTS = 800;
const WORDS = 2500;

/** CPU seconds (user + system) of `pid` and every process below it. */
export function treeCpuSeconds(pid: number): number {
  const ticks = 100; // USER_HZ on Linux
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / ticks });
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const todo = [pid];
  while (todo.length > 0) {
    const at = todo.pop()!;
    total += stats.get(at)?.cpu ?? 0;
    for (const [child, s] of stats) if (s.ppid === at) todo.push(child);
  }
  return total;
}

/** Polls /health one request after another until `stop()`: the longest wait, in ms, and requests dropped. */
function healthPoller(base: string) {
  let worst = 0;
  let dropped = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      // A connection the server dropped counts as the wait it was (a keep-alive connection closed by timers
      // that fired late, once a blocked event loop ran again), and the poll goes on.
      await fetch(`${base}/health`)
        .then((res) => res.arrayBuffer())
        .catch(() => (dropped += 1));
      worst = Math.max(worst, performance.now() - t0);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { worst, dropped };
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Attack {
  base: string;
  key: string;
  db: pg.Client;
  userId: string;
  appPid: number;
  seed: (id: string, videoId: string, segments: { start: number; end: number; text: string }[]) => Promise<void>;
}

/**
 * `count` segments given one timed word each, then each one's text replaced by `words` one-letter words: the
 * figures of the second save, under `label`.
 */
async function attack(ctx: Attack, label: string, id: string, count: number, words: number) {
  const original = Array.from({ length: count }, (_, i) => ({ start: i * 4, end: i * 4 + 3.9, text: `word${i}` }));
  await ctx.seed(id, id.slice(-11).padStart(11, "x"), original);
  // A save still unanswered after BENCH_EDITS_ATTACK_SECONDS (default 180) counts as status 0.
  const patch = async (body: string) => {
    try {
      const res = await fetch(`${ctx.base}/v1/transcripts/${id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${ctx.key}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(Number(process.env.BENCH_EDITS_ATTACK_SECONDS ?? 180) * 1000),
      });
      await res.arrayBuffer();
      return res.status;
    } catch (error) {
      if ((error as Error).name === "TimeoutError") return 0;
      throw error;
    }
  };
  const timed = JSON.stringify({
    segments: original.map((s) => ({ ...s, words: [{ start: s.start, end: s.start + 0.5, text: s.text }] })),
  });
  const timedStatus = await patch(timed);
  if (timedStatus !== 200) throw new Error(`the word-timed save answered ${timedStatus}`);
  const letters = Array.from({ length: words }, (_, w) => String.fromCharCode(97 + (w % 26))).join(" ");
  const big = JSON.stringify({ segments: original.map((s) => ({ start: s.start, end: s.end, text: letters })) });

  const calm: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await (await fetch(`${ctx.base}/health`)).arrayBuffer();
    calm.push(performance.now() - t0);
  }
  const stored = async () =>
    (
      await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "TranscriptRevision" WHERE "userId" = $1 AND "transcriptId" = $2`,
        [ctx.userId, id],
      )
    ).rows[0]!.n;
  const before = await stored();
  const cpu0 = treeCpuSeconds(ctx.appPid);
  const poller = healthPoller(ctx.base);
  const t0 = performance.now();
  const status = await patch(big);
  const wall = performance.now() - t0;
  const { worst, dropped } = await poller.stop();
  const cpu = treeCpuSeconds(ctx.appPid) - cpu0;
  const after = await stored();
  console.log(`${label}: ${Buffer.byteLength(big)} bytes → ${status}, revisions ${before} → ${after}`);
  return {
    [`${label}: body bytes`]: Buffer.byteLength(big),
    [`${label}: status`]: status,
    [`${label}: stored (1) or not (0)`]: after - before,
    [`${label}: save wall s`]: wall / 1000,
    [`${label}: app CPU s during the save`]: cpu,
    [`${label}: /health worst wait ms`]: worst,
    [`${label}: /health requests dropped`]: dropped,
    [`${label}: /health median ms before`]: median(calm),
    [`${label}: /health worst wait / median`]: worst / median(calm),
  };
}

/**
 * The attack (800 × 2,500 words), and the largest correction of the same shape that is stored (80 × 2,450
 * words: the most words a correction holds, each segment's word times retimed).
 */
export async function benchEditAttack(ctx: Attack): Promise<Record<string, number>> {
  return {
    ...(await attack(ctx, "attack", "bench-attack", SEGMENTS, WORDS)),
    ...(await attack(ctx, "most words", "bench-most-words", 80, 2450)),
  };
}
