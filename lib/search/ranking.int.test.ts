// What search ranks: the best of all matches by its own score (BM25 over impact-ordered postings), on every
// page, whichever way the candidates are found; the title and the newest rows; a history entry's size; and the
// same answers on the embedded PGlite as on PostgreSQL (compared before the tests that add rows to PostgreSQL). A small generated corpus: 400 transcripts of two
// passages each, words drawn from 20 whose frequencies go from rare (w00) to frequent (w19).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useTestDatabase } from "@/test/app-db";
import { searchQuerySchema, SEARCH_MAX_OFFSET } from "@/lib/search/schemas";
import type { SearchScope } from "@/lib/search/search-statement";
import { migratedPglite } from "@/test/shared-fixtures";

const TRANSCRIPTS = 400;
const WORDS = Array.from({ length: 20 }, (_, i) => `w${String(i).padStart(2, "0")}`);

// Word k of a segment: w(floor(sqrt(h mod 400))), so wNN is drawn with odds 2·NN + 1 in 400. Two segments of
// 30 words (about 200 characters: one passage each). Each transcript is published by "ra" and in ra's library;
// every third one is in "rb"'s library too.
const SEED = `
  INSERT INTO "User" ("id", "email", "updatedAt") VALUES ('ra', 'ra@example.test', now()), ('rb', 'rb@example.test', now());
  INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments", "createdAt")
  SELECT 'rk-' || i, 'youtube', lpad(i::text, 11, 'r'), 'en', 'captions',
    'Episode ' || i || ' ' || (ARRAY['${WORDS.join("','")}'])[1 + floor(sqrt(abs(hashint4(i * 7)) % 400))::int],
    'https://www.youtube.com/watch?v=' || lpad(i::text, 11, 'r'),
    (SELECT jsonb_agg(jsonb_build_object('start', s * 10, 'end', s * 10 + 9, 'text',
       (SELECT string_agg((ARRAY['${WORDS.join("','")}'])[1 + floor(sqrt(abs(hashint4(i * 1000 + s * 100 + k)) % 400))::int], ' ' ORDER BY k)
        FROM generate_series(1, 30) AS k)) ORDER BY s)
     FROM generate_series(0, 1) AS s),
    timestamp '2026-01-01' + make_interval(mins => i)
  FROM generate_series(1, ${TRANSCRIPTS}) AS i;
  INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
  SELECT 'rha-' || i, 'ra', 'youtube', lpad(i::text, 11, 'r'), 'en', 'captions', 'rk-' || i, 'done', now() FROM generate_series(1, ${TRANSCRIPTS}) AS i
  UNION ALL
  SELECT 'rhb-' || i, 'rb', 'youtube', lpad(i::text, 11, 'r'), 'en', 'captions', 'rk-' || i, 'done', now() FROM generate_series(3, ${TRANSCRIPTS}, 3) AS i;
  INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
  SELECT 'rp-' || i, 'episode-' || i, 'ra', 'rk-' || i, now(), now() FROM generate_series(1, ${TRANSCRIPTS}) AS i;`;

type Conn = { client: unknown; kind: string };
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: Promise<Conn>;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let lib: typeof import("@/lib/search/find-moments");

const install = (conn: Promise<Conn>) => ((globalThis as { verbatimDb?: unknown }).verbatimDb = conn);

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ctx = await useTestDatabase();
  postgres = (globalThis as unknown as { verbatimDb: Promise<Conn> }).verbatimDb;
  lib = await import("@/lib/search/find-moments");
  const client = new pg.Client({ connectionString: ctx.url });
  await client.connect();
  await client.query(SEED);
  await client.end();
  pglite = await migratedPglite();
  await pglite.exec(SEED);
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
});

afterAll(async () => {
  install(postgres);
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
});

const SCOPES: [string, SearchScope][] = [
  ["public", { kind: "public" }],
  ["a library of every transcript", { kind: "library", userId: "ra" }],
  ["a library of a third of them", { kind: "library", userId: "rb" }],
];

const parse = (q: string, extra: Record<string, unknown> = {}) => searchQuerySchema.parse({ q, ...extra });
const keyOf = (m: { transcriptId: string; seq: number }) => `${m.transcriptId}:${m.seq}`;

/** Every page of `q`, `limit` at a time, as find-moments answers them (the rows, without the look-ahead row). */
async function allPages(scope: SearchScope, q: string, limit: number, driver: "scope" | "postings") {
  const rows: Awaited<ReturnType<typeof lib.findMoments>> = [];
  for (let offset = 0; offset <= SEARCH_MAX_OFFSET; offset += limit) {
    const cursor = offset > 0 ? Buffer.from(`o:${offset}`).toString("base64url") : null;
    const page = await lib.findMoments(scope, parse(q, { limit, cursor }), { driver });
    rows.push(...page.slice(0, limit));
    if (page.length <= limit) break;
  }
  return rows;
}

describe("a single word", () => {
  for (const [name, scope] of SCOPES) {
    it(`${name}: every page is the exhaustive ranking's, by postings and by the scope alike`, async () => {
      install(postgres);
      for (const word of ["w19", "w09", "w01"]) {
        const all = (await lib.rankAllMatches(scope, parse(word), 2_000)).map(keyOf);
        expect(all.length, word).toBeGreaterThan(0);
        for (const driver of ["postings", "scope"] as const) {
          const paged = (await allPages(scope, word, 20, driver)).map(keyOf);
          expect(paged, `${word} by ${driver}`).toEqual(all.slice(0, paged.length));
          expect(paged.length).toBe(Math.min(all.length, SEARCH_MAX_OFFSET + 20));
        }
      }
    });
  }

  it("finds nothing for a word no passage holds, by postings and by the scope", async () => {
    install(postgres);
    for (const driver of ["postings", "scope"] as const)
      for (const q of ["zzunheard", "zzunheard OR zzunsaid", '"zzunheard w19"'])
        expect(await lib.findMoments({ kind: "public" }, parse(q), { driver }), q).toEqual([]);
  });

  it("ranks by the score, higher first, newer first among equals", async () => {
    install(postgres);
    const ranked = await lib.rankAllMatches({ kind: "public" }, parse("w12"), 2_000);
    for (let i = 1; i < ranked.length; i++) {
      const [a, b] = [ranked[i - 1]!, ranked[i]!];
      expect(a.rank > b.rank || (a.rank === b.rank && a.pid > b.pid), `${keyOf(a)} before ${keyOf(b)}`).toBe(true);
    }
  });
});

describe("several words", () => {
  it("pages through one fixed set of candidates: pages of any size neither repeat nor skip", async () => {
    install(postgres);
    for (const q of ["w19 w18", "w03 OR w04"]) {
      const by10 = (await allPages({ kind: "public" }, q, 10, "postings")).map(keyOf);
      const by25 = (await allPages({ kind: "public" }, q, 25, "postings")).map(keyOf);
      expect(by10.length, q).toBeGreaterThan(20);
      expect(new Set(by10).size).toBe(by10.length);
      expect(by25.slice(0, by10.length)).toEqual(by10);
    }
  });

  it("page 1 holds the exhaustive ranking's best ten", async () => {
    install(postgres);
    for (const q of ["w19 w18", "w05 w12", '"w19 w18"', "w03 OR w04", "w17 -w19", "w02 w10 w15 w19"]) {
      for (const [, scope] of SCOPES) {
        const best = (await lib.rankAllMatches(scope, parse(q), 10)).map(keyOf);
        const page = (await lib.findMoments(scope, parse(q, { limit: 10 }), { driver: "postings" })).slice(0, 10);
        expect(page.map(keyOf), q).toEqual(best);
      }
    }
  });
});

describe("the embedded PGlite", () => {
  it("gives the same moments, in the same order, with the same scores as PostgreSQL", async () => {
    const pgliteConn = Promise.resolve({ client: pgliteDb, kind: "pglite", pglite });
    for (const q of ["w19", "w07", "w19 w18", '"w11 w12"', "w03 OR w04", "w17 -w19"]) {
      for (const [, scope] of SCOPES.slice(0, 2)) {
        for (const driver of ["postings", "scope"] as const) {
          install(postgres);
          const onPostgres = await lib.findMoments(scope, parse(q, { limit: 50 }), { driver });
          install(pgliteConn);
          const onPglite = await lib.findMoments(scope, parse(q, { limit: 50 }), { driver });
          expect(onPglite.map(keyOf), `${q} by ${driver}`).toEqual(onPostgres.map(keyOf));
          onPglite.forEach((m, i) => expect(m.rank).toBeCloseTo(onPostgres[i]!.rank, 9));
        }
      }
    }
    install(postgres);
  });
});

describe("what a reader expects first", () => {
  it("puts the newest passages that say a frequent word most, in their title too, on page 1", async () => {
    install(postgres);
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
       SELECT 'planted-' || i, 'youtube', lpad(i::text, 11, 'p'), 'en', 'captions', 'W19 day', 'https://example.test/' || i,
         jsonb_build_array(jsonb_build_object('start', 0, 'end', 5, 'text', 'w19 w19 w19, w07 w19 w19 w19 w08'))
       FROM generate_series(1, 5) AS i`,
    );
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
       SELECT 'planted-h' || i, 'ra', 'youtube', lpad(i::text, 11, 'p'), 'en', 'captions', 'planted-' || i, 'done', now() FROM generate_series(1, 5) AS i`,
    );
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
       SELECT 'planted-p' || i, 'planted-' || i, 'ra', 'planted-' || i, now(), now() FROM generate_series(1, 5) AS i`,
    );
    try {
      for (const scope of [{ kind: "public" }, { kind: "library", userId: "ra" }] as SearchScope[]) {
        for (const driver of ["postings", "scope"] as const) {
          const page = await lib.findMoments(scope, parse("w19"), { driver });
          // Equal scores: the newest first.
          expect(page.slice(0, 5).map((m) => m.transcriptId)).toEqual([5, 4, 3, 2, 1].map((i) => `planted-${i}`));
        }
      }
    } finally {
      await ctx.db.$executeRawUnsafe(`DELETE FROM "Transcript" WHERE "id" LIKE 'planted-%'`);
    }
  });

  it("ranks a passage above the same words elsewhere when the transcript's title holds the word, and follows a new title", async () => {
    install(postgres);
    const text = JSON.stringify([{ start: 0, end: 5, text: "the zephyr came over the hills at dawn" }]);
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
       VALUES ('titled', 'youtube', 'ttttttttttt', 'en', 'captions', 'Zephyr', 'https://example.test/t', $1::jsonb),
              ('untitled', 'youtube', 'uuuuuuuuuuu', 'en', 'captions', 'Morning', 'https://example.test/u', $1::jsonb)`,
      text,
    );
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
       VALUES ('pt', 'titled', 'ra', 'titled', now(), now()), ('pu', 'untitled', 'ra', 'untitled', now(), now())`,
    );
    try {
      const order = async () => (await lib.findMoments({ kind: "public" }, parse("zephyr"))).map((m) => m.transcriptId);
      // "untitled" is newer: without the title, it would come first.
      expect(await order()).toEqual(["titled", "untitled"]);
      await ctx.db.$executeRawUnsafe(`UPDATE "Transcript" SET "title" = 'Zephyrs' WHERE "id" = 'untitled'`);
      await ctx.db.$executeRawUnsafe(`UPDATE "Transcript" SET "title" = 'Evening' WHERE "id" = 'titled'`);
      expect(await order()).toEqual(["untitled", "titled"]);
    } finally {
      await ctx.db.$executeRawUnsafe(`DELETE FROM "Transcript" WHERE "id" IN ('titled', 'untitled')`);
    }
  });

  it("never lifts a passage that says a word once, its title too, above one of the same length that says it more", async () => {
    install(postgres);
    // Passages of eight indexed words each; the one saying "zephyr" once is the newest and its title says it.
    const passages: [string, string, string][] = [
      ["thrice", "Morning", "zephyr zephyr zephyr charlie delta echo foxtrot golf"],
      ["twice", "Evening", "zephyr zephyr bravo charlie delta echo foxtrot golf"],
      ["once", "Zephyr notes", "zephyr alpha bravo charlie delta echo foxtrot golf"],
    ];
    for (const [i, [id, title, text]] of passages.entries()) {
      await ctx.db.$executeRawUnsafe(
        `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
         VALUES ($1, 'youtube', $2, 'en', 'captions', $3, 'https://example.test/' || $1, $4::jsonb)`,
        `field-${id}`,
        `field${i}`.padEnd(11, "f"),
        title,
        JSON.stringify([{ start: 0, end: 5, text }]),
      );
      await ctx.db.$executeRawUnsafe(
        `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "updatedAt")
         VALUES ($1, $1, 'ra', $1, now(), now())`,
        `field-${id}`,
      );
    }
    try {
      const expected = ["field-thrice", "field-twice", "field-once"];
      for (const driver of ["postings", "scope"] as const) {
        const page = await lib.findMoments({ kind: "public" }, parse("zephyr"), { driver });
        expect(page.map((m) => m.transcriptId).filter((id) => id.startsWith("field-"))).toEqual(expected);
      }
      const all = await lib.rankAllMatches({ kind: "public" }, parse("zephyr"), 10);
      expect(all.map((m) => m.transcriptId).filter((id) => id.startsWith("field-"))).toEqual(expected);
      // The title still counts: the same passage without it ranks below.
      await ctx.db.$executeRawUnsafe(`UPDATE "Transcript" SET "title" = 'Noon' WHERE "id" = 'field-once'`);
      const [withTitle, without] = await ctx.db.$queryRawUnsafe<{ impact: number }[]>(
        `SELECT verbatim_search_impact(1, 8, true)::float8 AS impact UNION ALL
         SELECT sp."impact"::float8 FROM "SearchPosting" sp JOIN "TranscriptPassage" p ON p."pid" = sp."pid"
         JOIN "SearchTerm" st ON st."id" = sp."termId" WHERE p."transcriptId" = 'field-once' AND st."term" = 'zephyr'`,
      );
      expect(without!.impact).toBeLessThan(withTitle!.impact);
    } finally {
      await ctx.db.$executeRawUnsafe(`DELETE FROM "Transcript" WHERE "id" LIKE 'field-%'`);
    }
  });

  it("computes every stored posting's impact again in the migration that made the title a field", async () => {
    install(postgres);
    const migration = readFileSync(
      fileURLToPath(
        new URL("../../prisma/migrations/20261128115321_search_title_as_field/migration.sql", import.meta.url),
      ),
      "utf8",
    );
    const repost = migration.slice(migration.indexOf("SELECT verbatim_search_post("));
    const impacts = () =>
      ctx.db.$queryRawUnsafe<{ pid: bigint; termId: number; impact: number }[]>(
        `SELECT "pid", "termId", "impact"::float8 AS impact FROM "SearchPosting" ORDER BY 1, 2`,
      );
    const before = await impacts();
    expect(before.length).toBeGreaterThan(0);
    // As the old function left them: 1 more where the title held the term.
    await ctx.db.$executeRawUnsafe(`UPDATE "SearchPosting" SET "impact" = "impact" + 1`);
    for (const statement of repost.split(/;\s*$/m).filter((s) => s.trim() !== ""))
      await ctx.db.$executeRawUnsafe(statement);
    expect(await impacts()).toEqual(before);
  });
});

describe("a show's page", () => {
  it("searches only the show's published episodes, ranked as everywhere", async () => {
    install(postgres);
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Follow" ("id", "userId", "url", "kind", "showSlug", "updatedAt")
       VALUES ('rf', 'ra', 'https://example.test/feed.rss', 'podcast', 'ranked-show-1a2b3c4d', now())`,
    );
    // Episodes 1-20 of the corpus; the 5th not transcribed yet.
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "FollowItem" ("id", "followId", "guid", "title", "url", "status", "transcriptId")
       SELECT 'rfi-' || i, 'rf', 'g' || i, 'Episode ' || i, 'https://example.test/' || i, CASE WHEN i = 5 THEN 'queued' ELSE 'done' END, 'rk-' || i
       FROM generate_series(1, 20) AS i`,
    );
    const episodes = new Set(Array.from({ length: 20 }, (_, i) => `rk-${i + 1}`).filter((id) => id !== "rk-5"));
    const show: SearchScope = { kind: "public", show: "ranked-show-1a2b3c4d" };
    const everywhere = await lib.rankAllMatches({ kind: "public" }, parse("w15"), 2_000);
    const expected = everywhere.filter((m) => episodes.has(m.transcriptId)).map(keyOf);
    expect(expected.length).toBeGreaterThan(3);
    for (const driver of ["postings", "scope"] as const)
      expect((await allPages(show, "w15", 20, driver)).map(keyOf)).toEqual(expected);
    const { searchPublic } = await import("@/lib/search/search-moments");
    const { publicSearchQuerySchema } = await import("@/lib/search/schemas");
    const found = await searchPublic(publicSearchQuerySchema.parse({ q: "w15", show: "ranked-show-1a2b3c4d" }));
    expect(found.results.every((m) => episodes.has(m.transcript_id))).toBe(true);
    expect((await searchPublic(publicSearchQuerySchema.parse({ q: "w15", show: "no-such-show" }))).results).toEqual([]);
    expect(publicSearchQuerySchema.safeParse({ q: "w15", show: "Not A Slug" }).success).toBe(false);
  });
});

describe("a history entry", () => {
  it("adds the same to the database whatever its transcript says: the transcript's words are not copied into it", async () => {
    install(postgres);
    const size = async () => {
      await ctx.db.$executeRawUnsafe(`VACUUM "Transcription"`);
      const [row] = await ctx.db.$queryRawUnsafe<{ bytes: bigint }[]>(
        `SELECT pg_total_relation_size('"Transcription"') AS bytes`,
      );
      return Number(row!.bytes);
    };
    // A transcript of 3,000 different words, and the corpus's of 60 words at most.
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "sourceUrl", "segments")
       SELECT 'huge', 'youtube', 'hhhhhhhhhhh', 'en', 'captions', 'Episode 999 w99', 'https://example.test/huge',
         (SELECT jsonb_agg(jsonb_build_object('start', s, 'end', s + 1, 'text',
            (SELECT string_agg('word' || (s * 30 + k), ' ') FROM generate_series(1, 30) AS k)) ORDER BY s)
          FROM generate_series(0, 99) AS s)`,
    );
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO "User" ("id", "email", "updatedAt") SELECT 'size-' || u, 'size-' || u || '@example.test', now() FROM generate_series(1, 10) AS u`,
    );
    const entries = (batch: string, transcript: string) =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "updatedAt")
         SELECT 'size-${batch}' || u || '-' || i, 'size-' || u, 'youtube', '${batch}' || lpad(i::text, 10, '0'), 'en', 'captions', ${transcript}, 'done', now()
         FROM generate_series(1, 10) AS u, generate_series(1, ${TRANSCRIPTS}) AS i`,
      );
    const before = await size();
    await entries("a", `'rk-' || i`);
    const small = ((await size()) - before) / (10 * TRANSCRIPTS);
    await entries("b", `'huge'`);
    const huge = ((await size()) - before) / (10 * TRANSCRIPTS) - small;
    expect(huge).toBeLessThan(small * 1.1);
    // The history's own row and indexes (its list's sorts and its title search): no word of the transcript.
    expect(small).toBeLessThan(1536);
  });
});
