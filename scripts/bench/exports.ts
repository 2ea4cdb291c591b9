// Figures for notes out (POST /v1/exports' operation, lib/exports): a library of EXPORT_BENCH_NOTES transcripts
// (default 1,000) made of real caption tracks (test/fixtures/captions: TED's "Grit", a talk's and a video's YouTube
// auto captions, a Russian lecture), exported whole as the streamed zip and read to the end: wall time, the
// process's peak RSS and heap above what it held before, and the zip's size. Runs on PostgreSQL (a database of its
// own, dropped after), without the app: the figures are the export's own. With node's --expose-gc the heap is also
// measured after full collections during the export: what it holds, apart from garbage not yet collected.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { captionSegments, parseCaptions } from "../../lib/captions/parse";
import { createMigratedTestDatabase } from "../../test/pg";

const TRACKS = [
  { file: "kyamashiro.grit.en.xml", kind: "manual" as const, lang: "en" },
  { file: "t2o2.auto.en.vtt", kind: "auto" as const, lang: "en" },
  { file: "sponsor-inference.auto.en.vtt", kind: "auto" as const, lang: "en" },
  { file: "gfedoseev.lecture.manual.ru.vtt", kind: "manual" as const, lang: "ru" },
];

function segmentsOf(file: string, kind: "auto" | "manual") {
  const body = readFileSync(fileURLToPath(new URL(`../../test/fixtures/captions/${file}`, import.meta.url)), "utf8");
  return captionSegments(parseCaptions(body), kind);
}

export async function benchExports(): Promise<Record<string, number>> {
  const notes = Number(process.env.EXPORT_BENCH_NOTES ?? 1000);
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "http://localhost:3000";
  process.env.AUTH_SECRET ??= "bench-exports-secret-bench-exports-secret";
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const tracks = TRACKS.map((track) => {
      const segments = segmentsOf(track.file, track.kind);
      return { ...track, json: JSON.stringify(segments), seconds: Math.ceil(segments.at(-1)?.end ?? 0) };
    });
    const userId = "bench-exports-user";
    await client.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ($1, $2, now())`, [
      userId,
      "exports@bench.test",
    ]);
    const seedStart = performance.now();
    for (let i = 0; i < notes; i++) {
      const track = tracks[i % tracks.length]!;
      const id = `bench-t-${i}`;
      const videoId = `v${String(i).padStart(10, "0")}`;
      await client.query(
        `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "captionKind", "title", "sourceUrl",
           "durationSeconds", "segments", "channel", "publishedAt", "chapters")
         VALUES ($1, 'youtube', $2, $3, 'captions', $4, $5, $6, $7, $8::jsonb, 'A channel', '20240102', $9::jsonb)`,
        [
          id,
          videoId,
          track.lang,
          track.kind,
          `Talk ${i}: ${track.file}`,
          `https://www.youtube.com/watch?v=${videoId}`,
          track.seconds,
          track.json,
          JSON.stringify([
            { start: 0, title: "Opening" },
            { start: Math.floor(track.seconds / 2), title: "Middle" },
          ]),
        ],
      );
      await client.query(
        `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state",
           "durationSeconds", "totalSeconds", "updatedAt")
         VALUES ($1, $2, 'youtube', $3, $4, 'captions', $5, 'done', $6, $6, now())`,
        [`bench-e-${i}`, userId, videoId, track.lang, id, track.seconds],
      );
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const { exportNotes } = await import("../../lib/exports/export-notes");
    const { exportRequestSchema } = await import("../../lib/exports/schemas");
    // Warm the modules and the connection pool, then measure from a settled heap.
    await new Response((await exportNotes(userId, exportRequestSchema.parse({ ids: ["bench-t-0"] }))).body).text();
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 10);
    const start = performance.now();
    const response = await exportNotes(userId, exportRequestSchema.parse({ library: true }));
    let zipBytes = 0;
    let chunks = 0;
    let retained = 0;
    const gc = (globalThis as { gc?: () => void }).gc;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      zipBytes += chunk.length;
      // What the export holds, apart from garbage not yet collected: the heap after a full collection, now and then.
      if (gc && ++chunks % 200 === 0) {
        gc();
        retained = Math.max(retained, process.memoryUsage().heapUsed - before.heapUsed);
      }
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return {
      "library notes": notes,
      "seed (s)": seedSeconds,
      "export wall (s)": seconds,
      "notes per second": notes / seconds,
      "zip (MB)": mb(zipBytes),
      "RSS before (MB)": mb(before.rss),
      "peak RSS during export (MB)": mb(peakRss),
      "peak RSS above before (MB)": mb(peakRss - before.rss),
      "peak heap above before (MB)": mb(peakHeap - before.heapUsed),
      "largest heap after a GC during export, above before (MB; needs --expose-gc)": mb(retained),
    };
  } finally {
    await client.end();
    const { getDb } = await import("../../lib/db/client");
    await (await getDb()).$disconnect();
    await database.drop();
  }
}
