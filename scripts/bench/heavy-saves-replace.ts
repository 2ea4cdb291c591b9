// The heavy-saves bench's replacing shapes and its concurrent users (heavy-saves-run.ts calls them): a heavy
// correction replaced by another a few seconds later, while the first is still being indexed; and several users
// each sending several heavy saves at once under the real rate limits (the refused ones should answer at once).
// Meanwhile another user reads their own transcript, one read after another, and /health's database check runs
// beside it (on the embedded database it answers "busy" rather than wait its turn: fast whatever the reads wait).
// HEAVY_SAVES_SCALE (0 to 1) shrinks every shape for a quick run.

import { monitorEventLoopDelay } from "node:perf_hooks";

const SCALE = Math.min(1, Math.max(0.01, Number(process.env.HEAVY_SAVES_SCALE ?? 1)));
/** The six-hour video of heavy-saves-run.ts. */
const DURATION = 21_600;
/** The second save of a replacing shape, this long after the first is sent (the first still indexing). */
const REPLACE_AFTER_MS = 4000;

type Segment = { start: number; end: number; text: string; speaker?: string };

/** `n` segments spread over the video, each `text(i)`, with `speakers` distinct 100-character names. */
export function spread(n: number, text: (i: number) => string, speakers = 0): Segment[] {
  const count = Math.max(1, Math.round(n * SCALE));
  const step = Math.floor((DURATION / count) * 1000) / 1000;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.round(i * step * 1000) / 1000;
    return {
      start,
      end: Math.round((start + step * 0.9) * 1000) / 1000,
      text: text(i),
      ...(speakers > 0 ? { speaker: `${"Speaker ".padEnd(95, "x")} ${String(i % speakers).padStart(4, "0")}` } : {}),
    };
  });
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** A distinct lowercase pseudo-word for each `i`. */
const word = (i: number) => `w${(i + 676).toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[+d]!)}`;

export const oneCharacter = () => spread(50_000, (i) => LETTERS[i % 26]!);
export const namedSpeakers = () => spread(24_000, (i) => `${word(i)} ${word(i + 1)}`, 200);
/** A correction an author has before the replacing saves: a word a line. */
const served = () => spread(2_160, (i) => word(i * 7));

/** Pairs (first save, the one replacing it). */
export const REPLACING: Record<string, [() => Segment[], () => Segment[]]> = {
  "one-character then named speakers": [oneCharacter, namedSpeakers],
  "named speakers then one-character": [namedSpeakers, oneCharacter],
};

export interface BenchContext {
  kind: string;
  save: (userId: string, transcriptId: string, segments: Segment[]) => Promise<void>;
  idle: () => Promise<void>;
  read: () => Promise<unknown>;
  /** /health's database check: "busy" when the embedded database did not take it within its turn. */
  health: () => Promise<"ok" | "busy">;
  out: Record<string, number>;
}

/** Another user's reads, one after another, until `stop()`: the worst and how many. */
export function readLoop(read: () => Promise<unknown>) {
  let reading = true;
  let worst = 0;
  let reads = 0;
  const loop = (async () => {
    while (reading) {
      const t0 = performance.now();
      await read();
      worst = Math.max(worst, performance.now() - t0);
      reads++;
    }
  })();
  return async () => {
    reading = false;
    await loop;
    return { worst, reads };
  };
}

/** /health's database check every 100 ms until `stop()`: the worst, and how many answered "busy". */
export function healthLoop(health: () => Promise<"ok" | "busy">) {
  let checking = true;
  let worst = 0;
  let busy = 0;
  const loop = (async () => {
    while (checking) {
      const t0 = performance.now();
      if ((await health()) === "busy") busy++;
      worst = Math.max(worst, performance.now() - t0);
      await pause(100);
    }
  })();
  return async () => {
    checking = false;
    await loop;
    return { worst, busy };
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each replacing pair: its saves' times, the worst read from the first save until all indexing is done. */
export async function benchReplacing(ctx: BenchContext, userId: string, transcriptId: string) {
  for (const [name, [first, second]] of Object.entries(REPLACING)) {
    // A served correction of the same transcript first, as an author who corrects again has.
    await ctx.save(userId, transcriptId, served());
    await ctx.idle();
    const label = `${ctx.kind} replacing: ${name}${SCALE < 1 ? ` (scale ${SCALE})` : ""}`;
    const a = first();
    const b = second();
    const stop = readLoop(ctx.read);
    const stopHealth = healthLoop(ctx.health);
    const t0 = performance.now();
    const timed = async (segments: Segment[]) => {
      const began = performance.now();
      let status = 200;
      await ctx.save(userId, transcriptId, segments).catch((error: { status?: number }) => {
        status = error.status ?? 500;
        if (status === 500) console.error(label, error);
      });
      return { ms: performance.now() - began, status };
    };
    const firstSave = timed(a);
    await pause(REPLACE_AFTER_MS);
    const secondSave = await timed(b);
    const firstDone = await firstSave;
    // The event loop while the corrections are indexed after their answers (what /health's wait rests on).
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    await ctx.idle();
    loop.disable();
    const idleMs = performance.now() - t0;
    const { worst, reads } = await stop();
    const health = await stopHealth();
    Object.assign(ctx.out, {
      [`${label}: first save ms`]: firstDone.ms,
      [`${label}: first answer`]: firstDone.status,
      [`${label}: second save ms`]: secondSave.ms,
      [`${label}: second answer`]: secondSave.status,
      [`${label}: all indexed ms`]: idleMs,
      [`${label}: event loop delay while indexing, worst ms (goal ≤ 200)`]: loop.max / 1e6,
      [`${label}: event loop delay while indexing, p95 ms (goal ≤ 100)`]: loop.percentile(95) / 1e6,
      [`${label}: worst read ms (goal ≤ 1000)`]: worst,
      [`${label}: reads`]: reads,
      [`${label}: /health's database check, worst ms`]: health.worst,
      [`${label}: /health's database check, busy`]: health.busy,
    });
    console.error(
      label,
      Math.round(firstDone.ms),
      firstDone.status,
      Math.round(secondSave.ms),
      secondSave.status,
      Math.round(worst),
      Math.round(health.worst),
      health.busy,
      Math.round(idleMs),
    );
  }
}

/**
 * Three users, each sending four heavy saves at once under the real rate limits, a minute's tokens at their
 * lowest (EDIT_SAVE_TOKENS_PER_MINUTE=100000, set by heavy-saves-run.ts: two of each user's are refused): every save's answer time, the refused ones' worst, another user's worst read.
 */
export async function benchUsers(ctx: BenchContext, users: { userId: string; transcriptId: string }[]) {
  const label = `${ctx.kind} users: ${users.length} users, 4 heavy saves each at once${SCALE < 1 ? ` (scale ${SCALE})` : ""}`;
  // Every body is made before the reads and the saves begin: a time measured is then the save's own.
  const saves = users.flatMap(({ userId, transcriptId }) =>
    [oneCharacter, namedSpeakers, oneCharacter, namedSpeakers].map((shape) => ({
      userId,
      transcriptId,
      segments: shape(),
    })),
  );
  const stop = readLoop(ctx.read);
  const t0 = performance.now();
  let worstSave = 0;
  let worstRefused = 0;
  let refused = 0;
  let stored = 0;
  await Promise.all(
    saves.map(async ({ userId, transcriptId, segments }) => {
      const began = performance.now();
      try {
        await ctx.save(userId, transcriptId, segments);
        stored++;
        worstSave = Math.max(worstSave, performance.now() - began);
      } catch (error) {
        const status = (error as { status?: number }).status ?? 500;
        if (status === 429) {
          refused++;
          worstRefused = Math.max(worstRefused, performance.now() - began);
        } else {
          if (status === 500) console.error(label, error);
          worstSave = Math.max(worstSave, performance.now() - began);
        }
      }
    }),
  );
  const answeredMs = performance.now() - t0;
  await ctx.idle();
  const idleMs = performance.now() - t0;
  const { worst, reads } = await stop();
  Object.assign(ctx.out, {
    [`${label}: stored`]: stored,
    [`${label}: refused (429)`]: refused,
    [`${label}: worst save ms (goal ≤ 15000)`]: worstSave,
    [`${label}: worst refused ms`]: worstRefused,
    [`${label}: all answered ms`]: answeredMs,
    [`${label}: all indexed ms`]: idleMs,
    [`${label}: worst read ms (goal ≤ 1000)`]: worst,
    [`${label}: reads`]: reads,
  });
  console.error(label, stored, refused, Math.round(worstSave), Math.round(worstRefused), Math.round(worst));
}
