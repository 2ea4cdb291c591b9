// Figures for corrections, against the built app on PostgreSQL, through @verbatim/client:
//   - a real manual caption file (the Russian lecture, test/fixtures/captions/gfedoseev.lecture.manual.ru.vtt)
//     and a real automatic one (t2o2.auto.en.vtt, YouTube's rolling auto captions, de-duplicated as stored):
//     a word replaced everywhere (the word nearest to 40 occurrences) by edits.findReplace, and the file
//     round-tripped: downloaded as SRT, a word changed, sent back with edits.saveFile (PATCH format srt);
//     words whose timing survived unchanged (a word's timing is its segment's start and end, these tracks
//     have no word times; and the word times of a synthetic word-timed track for the retiming itself);
//   - a 3-hour transcript (generated: 2,700 segments of 4 s, 10 words each, word-timed): the time to save a
//     one-word edit (PATCH, median of 15), and the time of the first GET /t/{slug} after a save (the page's
//     cache is expired by the save, so it is rendered again), beside a cached one.
import pg from "pg";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { fileURLToPath } from "node:url";
import { createVerbatimClient, type EditSegment } from "../../client/src/index";
import { captionSegments, parseCaptions } from "../../lib/captions/parse";
import { diffTokens, tokenize } from "../../lib/edits/word-diff";
import type { Segment } from "../../lib/formats/types";
import { PGLITE_EXTENSIONS } from "../../lib/db/pglite-extensions";
import { createMigratedTestDatabase } from "../../test/pg";
import { insertDoneEntries } from "../../lib/transcripts/history-queries";
import { benchEditAttack } from "./edit-attack";
import { createApiKey, startApp } from "./server";

/**
 * BENCH_EDITS_PORT moves the app off 3401; BENCH_EDITS_ONLY=attack runs only the heaviest correction;
 * BENCH_EDITS_DATABASE=embedded runs that attack on the embedded default (PGlite under a fresh DATA_DIR).
 */
const PORT = Number(process.env.BENCH_EDITS_PORT ?? 3401);

function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../test/fixtures/captions/${name}`, import.meta.url)), "utf8");
}

/** Words of `after` whose timing is what it was in `before`: unchanged words in a segment with the same times (or word times). */
export function survivingTimings(before: readonly Segment[], after: readonly Segment[]) {
  const key = (s: { start: number; end: number }) => `${Math.round(s.start * 1000)}:${Math.round(s.end * 1000)}`;
  const byTimes = new Map(before.map((s) => [key(s), s]));
  let words = 0;
  let kept = 0;
  let wordTimesKept = 0;
  for (const seg of after) {
    const tokens = tokenize(seg.text);
    words += tokens.length;
    const old = byTimes.get(key(seg));
    if (!old) continue;
    for (const run of diffTokens(tokenize(old.text), tokens)) {
      if (run.op !== "equal") continue;
      kept += run.tokens.length;
      if (old.words && seg.words)
        for (let i = 0; i < run.tokens.length; i++) {
          const a = old.words[run.from + i];
          const b = seg.words[run.at + i];
          if (a && b && a.start === b.start && a.end === b.end) wordTimesKept++;
        }
    }
  }
  return { words, kept, wordTimesKept };
}

/** The word (letters only, 4+ characters) whose count is nearest to 40. */
function wordNear40(segments: readonly Segment[]): { word: string; count: number } {
  const counts = new Map<string, number>();
  for (const s of segments)
    for (const w of s.text.toLowerCase().match(/\p{L}{4,}/gu) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  const [word, count] = [...counts].sort((a, b) => Math.abs(a[1] - 40) - Math.abs(b[1] - 40) || b[1] - a[1])[0]!;
  return { word, count };
}

function threeHours(): Segment[] {
  const segments: Segment[] = [];
  for (let i = 0; i < 2700; i++) {
    const start = i * 4;
    // Times to the millisecond, as stored transcripts have them (no float noise past a segment's end).
    const words = Array.from({ length: 10 }, (_, w) => ({
      start: Math.round((start + w * 0.4) * 1000) / 1000,
      end: Math.round((start + w * 0.4 + 0.38) * 1000) / 1000,
      text: `word${(i * 10 + w) % 997}`,
    }));
    segments.push({ start, end: start + 3.98, text: words.map((w) => w.text).join(" "), words });
  }
  return segments;
}

async function seed(
  client: Pick<pg.Client, "query">,
  userId: string,
  id: string,
  videoId: string,
  segments: Segment[],
  lang: string,
  kind: string,
) {
  const duration = Math.ceil(segments.at(-1)!.end);
  await client.query(
    `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl", "durationSeconds", "segments")
     VALUES ($1, 'youtube', $2, $3, 'captions', $4, $1, 'https://www.youtube.com/watch?v=' || $2, $5, $6)`,
    [id, videoId, lang, kind, duration, JSON.stringify(segments)],
  );
  await insertDoneEntries(
    (text, values) => client.query(text, values),
    [
      {
        id: `${id}-h`,
        userId,
        platform: "youtube",
        videoId,
        lang,
        origin: "captions",
        transcriptId: id,
        durationSeconds: duration,
      },
    ],
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The attack on the embedded default. Nothing outside the app may open its database while it runs, so each
 * transcript is seeded with the app stopped (PGlite opened on its folder, then closed) and the app started
 * again; the revisions are counted through the API. BENCH_EDITS_LOG: a file the app's output is appended to.
 */
async function benchEmbeddedAttack(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "verbatim-bench-edits-"));
  const settings = { DATA_DIR: dataDir, AUTH_DEV_LOGIN: "true" };
  const email = "edits-bench@example.test";
  const start = () => startApp(PORT, settings, process.cwd(), process.env.BENCH_EDITS_LOG);
  let app = await start();
  try {
    const base = app.baseUrl;
    const key = await createApiKey(base, email);
    const revisions = async (id: string) => {
      const res = await fetch(`${base}/v1/transcripts/${id}/revisions`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return ((await res.json()) as { revisions: unknown[] }).revisions.length;
    };
    let userId = "";
    const offline = async <T>(work: (db: PGlite) => Promise<T>): Promise<T> => {
      await app.stop();
      const db = await PGlite.create({ dataDir: path.join(dataDir, "pglite"), extensions: PGLITE_EXTENSIONS });
      try {
        return await work(db);
      } finally {
        await db.close();
        app = await start();
      }
    };
    return await benchEditAttack({
      base,
      key,
      db: {
        query: async (_sql: string, values: string[]) => ({ rows: [{ n: await revisions(values[1]!) }] }),
      } as never,
      userId,
      get appPid() {
        return app.pid;
      },
      seed: (id, videoId, segments) =>
        offline(async (db) => {
          userId ||= (await db.query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = $1`, [email])).rows[0]!
            .id;
          await seed(db as never, userId, id, videoId, segments, "en", "manual");
        }),
    });
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchEdits(): Promise<Record<string, number>> {
  if (process.env.BENCH_EDITS_DATABASE === "embedded") return benchEmbeddedAttack();
  const database = await createMigratedTestDatabase();
  const app = await startApp(PORT, {
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    AUTH_DEV_LOGIN: "true",
  });
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const base = app.baseUrl;
    const key = await createApiKey(base, "edits-bench@example.test");
    const { rows } = await db.query<{ id: string }>(
      `SELECT "id" FROM "User" WHERE "email" = 'edits-bench@example.test'`,
    );
    const userId = rows[0]!.id;
    const verbatim = createVerbatimClient({ baseUrl: base, apiKey: key });
    const figures: Record<string, number> = {};
    Object.assign(
      figures,
      await benchEditAttack({
        base,
        key,
        db,
        userId,
        appPid: app.pid,
        seed: (id, videoId, segments) => seed(db, userId, id, videoId, segments, "en", "manual"),
      }),
    );
    if (process.env.BENCH_EDITS_ONLY === "attack") return figures;

    const tracks = [
      { name: "manual", file: "gfedoseev.lecture.manual.ru.vtt", lang: "ru", kind: "manual" as const },
      { name: "auto", file: "t2o2.auto.en.vtt", lang: "en", kind: "auto" as const },
    ];
    for (const [n, track] of tracks.entries()) {
      const original = captionSegments(parseCaptions(fixture(track.file), "vtt"), track.kind);
      const id = `bench-${track.name}`;
      await seed(db, userId, id, `edits${n}xxxxx`.slice(0, 11), original, track.lang, track.kind);
      const { word, count } = wordNear40(original);
      const replaced = await verbatim.edits.findReplace(id, word, word.toUpperCase());
      const after = replaced.transcript.segments!;
      const survived = survivingTimings(original, after);
      console.log(`${track.name}: "${word}" ×${count} → replaced ${replaced.replaced}`);
      figures[`${track.name}: segments`] = original.length;
      figures[`${track.name}: words`] = survived.words;
      figures[`${track.name}: find-replace count`] = replaced.replaced;
      figures[`${track.name}: find-replace words with timing unchanged`] = survived.kept;
      figures[`${track.name}: find-replace segments with times unchanged`] = after.filter(
        (s, i) => s.start === original[i]?.start && s.end === original[i]?.end,
      ).length;
      // The SRT round trip: the author's current version as SRT, one more word changed, sent back.
      await verbatim.edits.restore(id);
      const srt = await verbatim.download(id, "srt");
      const fixed = srt.replace(new RegExp(`(?<!\\p{L})${word}(?!\\p{L})`, "giu"), "ZZ");
      const round = await verbatim.edits.saveFile(id, "srt", fixed);
      const back = survivingTimings(original, round.segments!);
      figures[`${track.name}: srt round trip words`] = back.words;
      figures[`${track.name}: srt round trip words with timing unchanged`] = back.kept;
      figures[`${track.name}: srt round trip segments`] = round.segments!.length;
    }

    // A word-timed track: how many word times survive a find-and-replace (retime.ts).
    const long = threeHours();
    await seed(db, userId, "bench-3h", "edits3hxxxx", long, "en", "manual");
    const fr = await verbatim.edits.findReplace("bench-3h", "word5", "WORDFIVE");
    const timed = survivingTimings(long, fr.transcript.segments!);
    figures["3h word-timed: words"] = timed.words;
    figures["3h word-timed: replaced"] = fr.replaced;
    figures["3h word-timed: word times unchanged"] = timed.wordTimesKept;

    // Saving a one-word edit of the 3-hour transcript.
    const saves: number[] = [];
    const current = (fr.transcript.segments ?? []) as EditSegment[];
    for (let i = 0; i < 15; i++) {
      const edited = current.map((s, j) =>
        j === 1000
          ? { start: s.start, end: s.end, text: s.text.replace(/^\S+/, `edit${i}`) }
          : { start: s.start, end: s.end, text: s.text },
      );
      const t0 = performance.now();
      await verbatim.edits.save("bench-3h", edited);
      saves.push(performance.now() - t0);
    }
    figures["3h save one-word edit ms (median of 15)"] = median(saves);
    figures["3h save one-word edit ms (max)"] = Math.max(...saves);
    figures["3h PATCH body KiB"] =
      Buffer.byteLength(JSON.stringify({ segments: current.map(({ start, end, text }) => ({ start, end, text })) })) /
      1024;

    // Its public page: the first render after a save, beside a cached one.
    const published = await verbatim.api.POST("/v1/publish", {
      body: { url: "https://www.youtube.com/watch?v=edits3hxxxx", lang: "en" },
    });
    const slug = published.data!.slug;
    const page = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/t/${slug}`);
      const html = await res.text();
      return { ms: performance.now() - t0, html, status: res.status };
    };
    await page();
    const cached: number[] = [];
    for (let i = 0; i < 10; i++) cached.push((await page()).ms);
    const rerender: number[] = [];
    for (let i = 0; i < 5; i++) {
      const marker = `fresh${i}word`;
      const edited = current.map((s, j) => ({
        start: s.start,
        end: s.end,
        text: j === 5 ? `${marker} ${s.text}` : s.text,
      }));
      await verbatim.edits.save("bench-3h", edited);
      const first = await page();
      if (first.status !== 200 || !first.html.includes(marker))
        throw new Error("the public page did not show the saved edit");
      rerender.push(first.ms);
    }
    figures["3h public page: first GET after save ms (median of 5)"] = median(rerender);
    figures["3h public page: cached GET ms (median of 10)"] = median(cached);
    return figures;
  } finally {
    await db.end();
    await app.stop();
    await database.drop();
  }
}
