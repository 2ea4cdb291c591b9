// The databases of the data-scale bench (scripts/bench/data-scale.ts): seeded once with INSERT … SELECT
// generate_series from the English words of the real caption tracks in test/fixtures/captions, kept as
// verbatim_bench_scale_<n> and reused, pending migrations applied on each open.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { REAL_CAPTION_FILES, referenceWords } from "../../test/fixtures/captions";
import { configuredAdminUrl } from "../../test/pg-server";
import { seedPostingAtTheEnd } from "./post-at-end";
import { DEFAULT_EMBEDDER } from "../../lib/embeddings/default-model";

export const QUESTION = "what the ocean weather does to a rocket launch";
export const SIZES: Record<string, number> = { "10k": 10_000, "100k": 100_000, "1m": 1_000_000 };
export const BUSY = "bench-scale-busy";
export const SPREAD = "bench-scale-spread";
/** A team account as busy as BUSY (n/10 entries of the same transcripts), asked for by TEAM_MEMBERS in turn. */
export const TEAM = "bench-scale-team";
export const TEAM_MEMBERS = [
  "bench-scale-team-m1",
  "bench-scale-team-m2",
  "bench-scale-team-m3",
  "bench-scale-team-m4",
];
/** How far back the team's entries go, at either size: the same period, so its usage has the same hours. */
const TEAM_SPAN_DAYS = 25;

/** The English words of the real caption tracks, in order: the stream the seeded passages are windows of. */
export function englishWords(): string[] {
  return REAL_CAPTION_FILES.filter((f) => f.file.includes(".en."))
    .flatMap((f) => referenceWords(f))
    .map((w) => w.replace(/[\u0000\ue000\ue001]/g, "").toLowerCase())
    .filter((w) => w !== "ocean" && w !== "zeppelin" && w !== "zqx");
}

function dbUrl(name: string): string {
  const url = new URL(configuredAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** The seconds each timed step of a seed took, by size and step (a figure of the run that seeded). */
export const seedSteps: Record<string, number> = {};

async function timedStep(n: number, label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  seedSteps[`seed ${n}: ${label} (s)`] = seconds;
  console.log(`    ${label}: ${seconds.toFixed(1)} s`);
}

/**
 * Every passage's vector of the default embedder, as its background job stores them (100 int8 numbers and a scale), so
 * that search by meaning reads and compares them: made from the passage's id (SHA-512), not its words (the cost of a
 * read, not what it finds: such vectors are alike to no query, so the fused page is the keyword one).
 */
async function seedEmbeddings(client: pg.Client): Promise<void> {
  await client.query(
    `INSERT INTO "PassageEmbedding" ("pid", "model", "vector", "scale")
     SELECT p."pid", $1, substring(sha512(p."pid"::text::bytea) || sha512((-p."pid")::text::bytea) FROM 1 FOR $2), 0.0079
     FROM "SearchPassage" p ON CONFLICT DO NOTHING`,
    [`${DEFAULT_EMBEDDER.name}/${DEFAULT_EMBEDDER.words}`, DEFAULT_EMBEDDER.dims],
  );
}

/** Seeds `n` rows of each kind into an empty, migrated database; returns the seconds it took. */
export async function seedScale(client: pg.Client, n: number): Promise<number> {
  const started = performance.now();
  await seedPostingAtTheEnd(
    (sql) => client.query(sql),
    () => seedRows(client, n),
    (label, run) => timedStep(n, label, run),
  );
  await timedStep(n, "passages' vectors", () => seedEmbeddings(client));
  await timedStep(n, "VACUUM ANALYZE", () => client.query("VACUUM ANALYZE"));
  return (performance.now() - started) / 1000;
}

async function seedRows(client: pg.Client, n: number): Promise<void> {
  const words = englishWords();
  const busyEntries = n / 10;
  const others = n / 100;
  await client.query(
    `INSERT INTO "User" ("id", "email", "updatedAt") VALUES ($1, 'busy@bench.test', now())
     UNION ALL SELECT 'bench-scale-u' || i, 'u' || i || '@bench.test', now() FROM generate_series(1, ${others}) AS i`,
    [BUSY],
  );
  // Two segments of ten words each: one passage. 96 in 1,000 passages say "ocean", 5 transcripts "zeppelin".
  await timedStep(n, "transcripts, cut into passages", () =>
    client.query(
      `INSERT INTO "Transcript" ("id", "platform", "videoId", "lang", "source", "title", "channel", "sourceUrl", "durationSeconds", "segments", "createdAt")
     SELECT 'st-' || i, 'youtube', 'v' || lpad(i::text, 10, '0'), 'en', 'captions',
       'Talk ' || i || ' ' || ($1::text[])[1 + abs(hashint4(i)) % array_length($1::text[], 1)],
       'Channel ' || (i % 500), 'https://www.youtube.com/watch?v=v' || lpad(i::text, 10, '0'), 60 + abs(hashint4(i * 3)) % 3600,
       jsonb_build_array(
         jsonb_build_object('start', 0, 'end', 4, 'text',
           array_to_string(($1::text[])[o : o + 9], ' ')
           || CASE WHEN abs(hashint4(i * 31)) % 1000 < 96 THEN ' ocean' ELSE '' END
           || CASE WHEN i % ${n / 5} = 7 THEN ' zeppelin' ELSE '' END),
         jsonb_build_object('start', 4, 'end', 8, 'text', array_to_string(($1::text[])[o + 10 : o + 19], ' '))),
       now() - make_interval(secs => ${n} - i)
     FROM generate_series(1, ${n}) AS i,
          LATERAL (SELECT 1 + abs(hashint8(i::bigint * 7919)) % (array_length($1::text[], 1) - 20) AS o) AS w`,
      [words],
    ),
  );
  // The busy user's entries are transcripts 1 … n/10; each other transcript is one other user's entry.
  await timedStep(n, "history entries", () =>
    client.query(
      `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "title", "durationSeconds", "totalSeconds", "createdAt", "updatedAt")
     SELECT 'sh-' || i,
       CASE WHEN i <= ${busyEntries} THEN $1 ELSE 'bench-scale-u' || (1 + i % ${others}) END,
       'youtube', 'v' || lpad(i::text, 10, '0'), 'en', 'captions', 'st-' || i,
       CASE WHEN i % 50 = 0 THEN 'error' ELSE 'done' END,
       CASE WHEN i <= ${busyEntries} AND i % ${busyEntries / 3} = 11 THEN 'zqx notes ' || i END,
       60 + abs(hashint4(i * 3)) % 3600, 60 + abs(hashint4(i * 5)) % 7200,
       now() - make_interval(secs => ${n} - i), now()
     FROM generate_series(1, ${n}) AS i`,
      [BUSY],
    ),
  );
  await client.query(
    `INSERT INTO "Publication" ("id", "slug", "userId", "transcriptId", "publishedAt", "createdAt", "updatedAt")
     SELECT 'sp-' || i, 'talk-' || i,
       CASE WHEN i <= ${busyEntries} THEN $1 ELSE 'bench-scale-u' || (1 + i % ${others}) END,
       'st-' || i, now() - make_interval(secs => ${n} - i), now() - make_interval(secs => ${n} - i), now()
     FROM generate_series(1, ${n}) AS i`,
    [BUSY],
  );
  await seedSpreadUser(client, n);
  await seedCorrections(client, n);
  await seedTeam(client, n);
}

/**
 * Corrections (lib/edits): one in 50 of the other users' transcripts corrected by the user who holds it (its
 * first segment with a word added), cut into passages by the app's trigger as a saved correction is. Search
 * reads them with the transcripts' passages (the view "SearchPassage"): a read that scanned them all per
 * entry or per row grew with everyone's corrections.
 */
async function seedCorrections(client: pg.Client, n: number): Promise<void> {
  await client.query(
    `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes", "createdAt")
     SELECT 'sr-' || i, 'bench-scale-u' || (1 + i % ${n / 100}), t."id", c.segments, octet_length(c.segments::text), now()
     FROM generate_series(${n / 10 + 1}, ${n}, 50) AS i
     JOIN "Transcript" t ON t."id" = 'st-' || i
     CROSS JOIN LATERAL (SELECT jsonb_set(t."segments", '{0,text}', to_jsonb((t."segments" -> 0 ->> 'text') || ' corrected')) AS segments) AS c`,
  );
}

/**
 * A second user as busy as the first (n/10 done entries), whose transcripts are every tenth of everyone's
 * rather than the oldest tenth: spread through the passages' table as a large account's are when its entries
 * come in among everyone else's over time. The busy user's layout (all their passages first) is the one where
 * search finds their matches soonest; this one is the usual one. Added to a database seeded without it.
 */
async function seedSpreadUser(client: pg.Client, n: number): Promise<void> {
  await client.query(`INSERT INTO "User" ("id", "email", "updatedAt") VALUES ($1, 'spread@bench.test', now())`, [
    SPREAD,
  ]);
  await client.query(
    `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "durationSeconds", "totalSeconds", "createdAt", "updatedAt")
     SELECT 'ss-' || i, $1, 'youtube', 'v' || lpad(i::text, 10, '0'), 'en', 'captions', 'st-' || i, 'done',
       60 + abs(hashint4(i * 3)) % 3600, 60 + abs(hashint4(i * 5)) % 7200, now() - make_interval(secs => ${n} - i), now()
     FROM generate_series(3, ${n}, 10) AS i`,
    [SPREAD],
  );
}

/**
 * A team (User.kind = team) of four members (TEAM_MEMBERS; the first its owner, the others admin, member, viewer)
 * whose n/10 entries are BUSY's transcripts (the same layout, so the same reads cost what BUSY's do), each asked
 * for by one member in turn (actorId), spread evenly over the TEAM_SPAN_DAYS before seeding, with one in 50 in
 * error and the titles BUSY's have. A paid period that begins inside an hour before the first of them and ends long
 * after holds them all however late the bench runs, so per-member usage reads every one (its partial first hour
 * from the entries). Added to a database seeded without it.
 */
async function seedTeam(client: pg.Client, n: number): Promise<void> {
  const entries = n / 10;
  await client.query(
    `INSERT INTO "User" ("id", "kind", "name", "slug", "updatedAt") VALUES ($1, 'team', 'Bench team', 'bench-team', now())`,
    [TEAM],
  );
  await client.query(
    `INSERT INTO "User" ("id", "email", "updatedAt") SELECT m, m || '@bench.test', now() FROM unnest($1::text[]) AS m`,
    [TEAM_MEMBERS],
  );
  await client.query(
    `INSERT INTO "Membership" ("teamId", "userId", "role", "updatedAt")
     SELECT $1, m, (ARRAY['owner', 'admin', 'member', 'viewer'])[k]::"TeamRole", now()
     FROM unnest($2::text[]) WITH ORDINALITY AS t(m, k)`,
    [TEAM, TEAM_MEMBERS],
  );
  await client.query(
    `INSERT INTO "Subscription" ("id", "userId", "tier", "currentPeriodStart", "currentPeriodEnd", "updatedAt")
     VALUES ('bench-team-subscription', $1, 'pro', date_trunc('hour', now() - interval '${TEAM_SPAN_DAYS} days 1 hour') + interval '17 minutes 23.456 seconds',
       now() + interval '100 years', now())`,
    [TEAM],
  );
  await timedStep(n, "the team's history entries", () =>
    client.query(
      `INSERT INTO "Transcription" ("id", "userId", "platform", "videoId", "lang", "source", "transcriptId", "state", "title", "durationSeconds", "totalSeconds", "createdAt", "updatedAt", "actorId")
       SELECT 'stm-' || i, $1, 'youtube', 'v' || lpad(i::text, 10, '0'), 'en', 'captions', 'st-' || i,
         CASE WHEN i % 50 = 0 THEN 'error' ELSE 'done' END,
         CASE WHEN i % ${entries / 3} = 11 THEN 'zqx notes ' || i END,
         60 + abs(hashint4(i * 3)) % 3600, 60 + abs(hashint4(i * 5)) % 7200,
         now() - interval '${TEAM_SPAN_DAYS} days' * (1 - i::float8 / ${entries}), now(),
         ($2::text[])[1 + i % ${TEAM_MEMBERS.length}]
       FROM generate_series(1, ${entries}) AS i`,
      [TEAM, TEAM_MEMBERS],
    ),
  );
}

/**
 * The database of `label`'s size (verbatim_bench_scale_<label>, or `name`), created, migrated and seeded when new
 * (`seeded`: the seconds that took), with a pool and a Prisma client on it.
 */
export async function openScaleDb(
  label: string,
  name = `verbatim_bench_scale_${label}`,
): Promise<{ prisma: PrismaClient; pool: pg.Pool; seeded: number | null }> {
  const n = SIZES[label]!;
  const admin = new pg.Client({ connectionString: configuredAdminUrl() });
  await admin.connect();
  const exists = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount! > 0;
  if (!exists) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const client = new pg.Client({ connectionString: dbUrl(name) });
  await client.connect();
  let seeded: number | null = null;
  try {
    const { applyMigrations, pgExecutor } = await import("../../lib/db/migrate");
    const migrated = performance.now();
    const { applied } = await applyMigrations(pgExecutor(client), {
      log: (line) => console.log(`  ${label}: ${line}`),
    });
    if (applied.length > 0 && exists) {
      console.log(`  ${label}: migrations applied in ${((performance.now() - migrated) / 1000).toFixed(1)} s`);
      // What a migration filled has no statistics yet (autovacuum gives them a while later): reads planned
      // without them measure that moment, not the schema.
      await client.query("ANALYZE");
    }
    const [row] = (await client.query(`SELECT count(*)::int AS n FROM "Publication"`)).rows as { n: number }[];
    if (row!.n === 0) {
      console.log(`  ${label}: seeding ${n} rows of each kind …`);
      seeded = await seedScale(client, n);
      console.log(`  ${label}: seeded in ${seeded.toFixed(1)} s`);
    } else {
      // Added to a database seeded before them.
      if ((await client.query(`SELECT 1 FROM "PassageEmbedding" LIMIT 1`)).rowCount === 0) {
        console.log(`  ${label}: adding every passage's vector …`);
        await timedStep(n, "passages' vectors", () => seedEmbeddings(client));
      }
      if ((await client.query(`SELECT 1 FROM "User" WHERE "id" = $1`, [SPREAD])).rowCount === 0) {
        console.log(`  ${label}: adding the spread user …`);
        await seedSpreadUser(client, n);
        await client.query(`VACUUM ANALYZE "Transcription"`);
      }
      if ((await client.query(`SELECT 1 FROM "TranscriptRevision" LIMIT 1`)).rowCount === 0) {
        console.log(`  ${label}: adding corrections …`);
        await seedCorrections(client, n);
        await client.query(`VACUUM ANALYZE "Transcription", "TranscriptRevision", "RevisionPassage"`);
      }
      if ((await client.query(`SELECT 1 FROM "User" WHERE "id" = $1`, [TEAM])).rowCount === 0) {
        console.log(`  ${label}: adding the team …`);
        await seedTeam(client, n);
        await client.query(`VACUUM ANALYZE "Transcription", "MemberUsageHour", "HistoryCount"`);
      }
    }
  } finally {
    await client.end();
  }
  // Connections opened before timing and kept (pg closes an idle one after 10 s by default): opening one
  // inside a timed read (some use two at once) would cost more than the whole read.
  const pool = new pg.Pool({ connectionString: dbUrl(name), max: 4, idleTimeoutMillis: 0 });
  const opened = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
  for (const connection of opened) connection.release();
  return { prisma: new PrismaClient({ adapter: new PrismaPg(pool) }), pool, seeded };
}

export type ScaleDb = Awaited<ReturnType<typeof openScaleDb>>;

/** Makes `db` the app's connection (the one lib/db/client.ts keeps on globalThis). */
export function install(db: ScaleDb) {
  (globalThis as { verbatimDb?: unknown }).verbatimDb = Promise.resolve({
    client: db.prisma,
    kind: "postgres",
    pool: db.pool,
  });
}
