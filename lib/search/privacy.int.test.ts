// Nothing private through search: a word one user holds privately (in an upload of their own and in a correction
// of a public transcript) changes no answer anyone else gets: not the moments, not their rank, not the words a
// word begun stands for, not did_you_mean. Every scope (public, a show's, another user's library; with and
// without prefix), on PostgreSQL and PGlite alike. Once the holder deletes their entries, the words are gone
// from the index too.
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useTestDatabase } from "@/test/app-db";
import { indexCorrections, storeTranscript, type Segments } from "@/test/search";
import { searchQuerySchema } from "@/lib/search/schemas";
import { migratedPglite } from "@/test/shared-fixtures";

// A guard against a hang: each test asks every scope's questions three times over (before, with and after the
// private words), and beside the browser's suites in CI one took 176 s of the default 180.
vi.setConfig({ testTimeout: 10 * 60_000 });

type Conn = { client: unknown; kind: string };
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: Promise<Conn>;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let moments: typeof import("@/lib/search/search-moments");

const install = (conn: Promise<Conn>) => ((globalThis as { verbatimDb?: unknown }).verbatimDb = conn);

const SHARED: Segments = [
  { start: 0, end: 4, text: "The lighthouse keeper spread marmalade on his toast at the harbour." },
  { start: 4, end: 8, text: "Zorblefax, the keeper's old cat, slept by the lamp all winter." },
  { start: 8, end: 12, text: "Ships leave the harbour at dawn when the fog lifts over the rocks." },
];
const OTHER: Segments = [
  { start: 0, end: 5, text: "A marmalade sandwich for the crew, and a lighthouse painted on the mug." },
  { start: 5, end: 9, text: "The ferry crosses the bay twice a day in summer." },
];
/** The private words: in an upload only its holder has, and in their correction of the shared transcript. */
const PLANTED = "zorbleflux";
const privateUpload = (): Segments =>
  Array.from({ length: 12 }, (_, i) => ({
    start: i * 5,
    end: i * 5 + 5,
    text: `Notes ${i}: ${PLANTED} quasarine marmalade, marmalade and more marmalade; the lighthouse budget, ${PLANTED} again, with a long tail of ordinary words to fill the passage out.`,
  }));

/** What each observer asks; prefix=true for a word being typed. */
const QUERIES: { q: string; prefix?: boolean }[] = [
  { q: "marmalade" },
  { q: "lighthouse marmalade" },
  { q: "lighthouse OR zorbleflux" },
  { q: PLANTED },
  { q: "zorbleflx" },
  { q: "marmelade" },
  { q: "quasarine" },
  { q: "quasarin" },
  ...["z", "zorb", "zorblef", "zorblefl", "zorbleflu", "zorblefla", "quas", "lighthouse zorbl", "marm"].map((q) => ({
    q,
    prefix: true,
  })),
];

interface World {
  publisher: string;
  reader: string;
  holder: string;
  shared: string;
  show: string;
}

async function seed(db: PrismaClient): Promise<World> {
  const user = async (name: string) => (await db.user.create({ data: { email: `${name}@privacy.test` } })).id;
  const [publisher, reader, holder] = [await user("publisher"), await user("reader"), await user("holder")];
  const shared = (
    await storeTranscript(db, { segments: SHARED, lang: "en", title: "Keeper", userIds: [publisher, reader, holder] })
  ).transcript.id;
  const other = (await storeTranscript(db, { segments: OTHER, lang: "en", title: "Crew", userIds: [publisher] }))
    .transcript.id;
  for (const [slug, transcriptId] of [
    ["keeper", shared],
    ["crew", other],
  ] as const)
    await db.publication.create({ data: { slug, userId: publisher, transcriptId, publishedAt: new Date() } });
  const show = "harbour-show";
  const follow = await db.follow.create({
    data: { userId: publisher, url: "https://example.com/feed.xml", kind: "podcast", showSlug: show },
  });
  await db.followItem.create({
    data: {
      followId: follow.id,
      guid: "ep-1",
      title: "Keeper",
      url: "https://example.com/1.mp3",
      status: "done",
      transcriptId: shared,
    },
  });
  return { publisher, reader, holder, shared, show };
}

/** The holder's private words: their own upload, and a correction of the shared transcript only they see. */
async function plant(db: PrismaClient, world: World) {
  await storeTranscript(db, {
    segments: privateUpload(),
    lang: "en",
    title: "Budget",
    platform: "upload",
    userIds: [world.holder],
  });
  const corrected = SHARED.map((s, i) => (i === 0 ? { ...s, text: `${s.text} ${PLANTED} quasarine marmalade` } : s));
  await db.transcriptRevision.create({
    data: {
      userId: world.holder,
      transcriptId: world.shared,
      segments: corrected,
      sizeBytes: JSON.stringify(corrected).length,
    },
  });
  await indexCorrections(db);
}

/** Every answer anyone but the holder gets, whole, by observer and query. */
async function answers(world: World) {
  const out: Record<string, unknown> = {};
  for (const { q, prefix = false } of QUERIES) {
    const query = searchQuerySchema.parse({ q, prefix: String(prefix), limit: "20" });
    const key = `${q}${prefix ? " (typing)" : ""}`;
    out[`public: ${key}`] = await moments.searchPublic(query);
    out[`show: ${key}`] = await moments.searchPublic({ ...query, show: world.show });
    out[`reader: ${key}`] = await moments.searchLibrary(world.reader, query);
    out[`publisher: ${key}`] = await moments.searchLibrary(world.publisher, query);
    for (const driver of ["postings", "scope"] as const) {
      out[`public by ${driver}: ${key}`] = await moments.searchPublic(query, { driver });
      out[`reader by ${driver}: ${key}`] = await moments.searchLibrary(world.reader, query, { driver });
    }
  }
  return out;
}

/** The holder deletes both entries; the hourly cleanup runs. */
async function forget(db: PrismaClient, world: World) {
  const { deleteTranscription } = await import("@/lib/transcripts/delete-transcription");
  for (const entry of await db.transcription.findMany({ where: { userId: world.holder } }))
    await deleteTranscription(world.holder, entry.id);
  const { deleteUnheldUploadTranscripts } = await import("@/lib/transcripts/forget-unheld");
  const { deleteUnusedSearchTerms } = await import("@/lib/search/prune-terms");
  expect(await deleteUnheldUploadTranscripts()).toBe(1);
  await deleteUnusedSearchTerms();
}

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ctx = await useTestDatabase();
  postgres = (globalThis as unknown as { verbatimDb: Promise<Conn> }).verbatimDb;
  moments = await import("@/lib/search/search-moments");
  pglite = await migratedPglite();
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
});

afterAll(async () => {
  install(postgres);
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
});

describe.each(["PostgreSQL", "PGlite"] as const)("on %s", (name) => {
  const db = () => (name === "PostgreSQL" ? (ctx.db as unknown as PrismaClient) : pgliteDb);
  const use = () =>
    install(name === "PostgreSQL" ? postgres : Promise.resolve({ client: pgliteDb, kind: "pglite", pglite }));

  it("a word someone holds privately changes no answer anyone else gets, and is gone once they delete it", async () => {
    use();
    const world = await seed(db());
    const before = await answers(world);
    // The figures are what they should be: the control is found, a near miss of a visible word is corrected.
    const marmalade = before["public: marmalade"] as Awaited<ReturnType<typeof moments.searchPublic>>;
    expect(marmalade.results.length).toBe(2);
    expect((before["public: zorbleflu (typing)"] as { did_you_mean: string | null }).did_you_mean).toBe("zorblefax");
    expect((before["show: marmelade"] as { did_you_mean: string | null }).did_you_mean).toBe("marmalade");

    await plant(db(), world);
    // The holder finds their own words (the plant worked)...
    const own = await moments.searchLibrary(world.holder, searchQuerySchema.parse({ q: PLANTED }));
    expect(own.results.length).toBeGreaterThan(1);
    // ...and nobody else sees any difference, in any answer.
    const after = await answers(world);
    for (const key of Object.keys(before)) expect(after[key], key).toEqual(before[key]);

    await forget(db(), world);
    const left = await db().$queryRawUnsafe<{ term: string }[]>(
      `SELECT "term" FROM "SearchTerm" WHERE "term" LIKE 'zorblefl%' OR "term" LIKE 'quasarin%'`,
    );
    expect(left).toEqual([]);
    const forgotten = await answers(world);
    for (const key of Object.keys(before)) expect(forgotten[key], key).toEqual(before[key]);
  });
});
