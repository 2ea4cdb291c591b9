// Nothing private through search by meaning: whether a question is about anything in reach (`nothing_close`) is read
// from the words of the passages the asker may see, so a question whose words someone else says privately (in an
// upload of their own, in their correction of a transcript both hold) gets exactly the answer it gets when that
// user does not exist: the same nothing_close, the same moments, the same did_you_mean. Real speech (two tracks of
// the judged set) and the default embedder's word vectors, in a library and the public scope judged at any size,
// on PostgreSQL and PGlite alike.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { useTestDatabase } from "@/test/app-db";
import { indexCorrections, storeTranscript, type Segments } from "@/test/search";
import { JUDGED_TRACKS, judgedTrackSegments } from "@/test/fixtures/captions/judged-search";
import type { SearchResponse } from "./schemas";
import { migratedPglite, useSharedModels } from "@/test/shared-fixtures";

type Conn = { client: unknown; kind: string };
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let postgres: Promise<Conn>;
let pglite: PGlite;
let pgliteDb: PrismaClient;
let dir: string;
let search: typeof import("./search-moments");
let schemas: typeof import("./schemas");
let offTopic: typeof import("./off-topic");
let embed: () => Promise<void>;

const install = (conn: Promise<Conn>) => ((globalThis as { verbatimDb?: unknown }).verbatimDb = conn);

/** About nothing either track says: every word of its topic unsaid there. */
const QUESTION = "how do I descale a kettle";
const TRACKS = JUDGED_TRACKS.filter((t) => ["grit", "komodo"].includes(t.key));
/** The holder's private words: the question's, said again and again. */
const privateUpload = (): Segments =>
  Array.from({ length: 8 }, (_, i) => ({
    start: i * 5,
    end: i * 5 + 5,
    text: `Step ${i}: to descale a kettle, fill the kettle with vinegar, boil it, and descale the kettle again.`,
  }));

interface World {
  asker: string;
  holder: string;
  /** A track the asker has published, which the holder holds too (and corrects). */
  shared: string;
}

async function seed(db: PrismaClient): Promise<World> {
  const user = async (name: string) => (await db.user.create({ data: { email: `${name}@meaning-privacy.test` } })).id;
  const [asker, holder] = [await user("asker"), await user("holder")];
  const ids: string[] = [];
  for (const track of TRACKS) {
    const userIds = track.key === "grit" ? [asker, holder] : [asker];
    const { transcript } = await storeTranscript(db, {
      segments: judgedTrackSegments(track),
      lang: "en",
      title: track.title,
      userIds,
    });
    ids.push(transcript.id);
    await db.publication.create({
      data: { slug: track.key, userId: asker, transcriptId: transcript.id, publishedAt: new Date() },
    });
  }
  return { asker, holder, shared: ids[0]! };
}

/** The holder's private words: their own upload, and their correction of the shared track only they see. */
async function plant(db: PrismaClient, world: World) {
  await storeTranscript(db, {
    segments: privateUpload(),
    lang: "en",
    title: "Kitchen chores",
    platform: "upload",
    userIds: [world.holder],
  });
  const segments = judgedTrackSegments(TRACKS[0]!).map((s, i) =>
    i === 0 ? { ...s, text: `${s.text} Descale the kettle every month.` } : s,
  );
  await db.transcriptRevision.create({
    data: {
      userId: world.holder,
      transcriptId: world.shared,
      segments: segments as object[],
      sizeBytes: JSON.stringify(segments).length,
    },
  });
  await indexCorrections(db);
}

/** Everything the asker is answered, by scope, mode and typing; and the question's words the asker is known to see. */
async function answers(world: World) {
  const out: Record<string, unknown> = {};
  for (const mode of ["hybrid", "meaning"])
    for (const prefix of ["false", "true"]) {
      const query = schemas.searchQuerySchema.parse({ q: QUESTION, mode, prefix, limit: "10" });
      out[`library, ${mode}, prefix ${prefix}`] = await search.searchLibrary(world.asker, query);
      out[`public, ${mode}, prefix ${prefix}`] = await search.searchPublic(query);
    }
  const { getDb } = await import("@/lib/db/client");
  const { SEARCH_CONFIGS } = await import("./config");
  // Both ways the vocabulary is read (visible-terms.ts): a small scope's own passages, a large one's postings probed.
  for (const small of [true, false])
    for (const scope of [{ kind: "library", userId: world.asker } as const, { kind: "public", show: null } as const])
      out[`held words, ${scope.kind}, ${small ? "small" : "large"}`] = await offTopic.heldWords(
        await getDb(),
        { scope, small },
        QUESTION,
        SEARCH_CONFIGS,
      );
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "meaning-privacy-"));
  process.env.DATA_DIR = dir;
  await useSharedModels(dir);
  process.env.APP_URL = "https://verbatim.example";
  process.env.SEARCH_EMBEDDER = "default";
  // The word vectors alone: what this checks is the same with the distilled ones beside (the judged guard has them).
  process.env.SEARCH_DISTILLED_WORDS = "0";
  // Every scope is judged by its words here, however small; by default only one of 2,000 passages or more.
  process.env.SEARCH_OFF_TOPIC_FROM_PASSAGES = "0";
  ctx = await useTestDatabase();
  postgres = (globalThis as unknown as { verbatimDb: Promise<Conn> }).verbatimDb;
  search = await import("./search-moments");
  schemas = await import("./schemas");
  offTopic = await import("./off-topic");
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const embedder = configuredEmbedder()!;
  await embedder.prepare();
  embed = async () => {
    while ((await embedMissingPassages(embedder)).embedded > 0);
  };
  pglite = await migratedPglite();
  pgliteDb = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
}, 300_000);

afterAll(async () => {
  install(postgres);
  await pgliteDb?.$disconnect();
  await pglite?.close();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

describe.each(["PostgreSQL", "PGlite"] as const)("on %s", (name) => {
  const db = () => (name === "PostgreSQL" ? (ctx.db as unknown as PrismaClient) : pgliteDb);
  const use = () =>
    install(name === "PostgreSQL" ? postgres : Promise.resolve({ client: pgliteDb, kind: "pglite", pglite }));

  it("a question someone else says privately is as far from everything the asker may see as before", async () => {
    use();
    const world = await seed(db());
    await embed();
    const before = await answers(world);
    // The control: the question is about nothing in reach, and the answer says so (it can change).
    for (const [key, answer] of Object.entries(before)) {
      if (key.startsWith("held words")) expect(answer, key).toMatchObject({ words: 2, held: 0 });
      else {
        const { nothing_close, results, did_you_mean } = answer as SearchResponse;
        expect(nothing_close, key).toBe(true);
        expect(
          results.filter((m) => m.matched !== "words"),
          key,
        ).toEqual([]);
        expect(did_you_mean, key).toBeNull();
      }
    }

    await plant(db(), world);
    await embed();
    // The holder's own library says those words: the question is about something there (the plant worked)...
    const own = await search.searchLibrary(world.holder, schemas.searchQuerySchema.parse({ q: QUESTION }));
    expect(own.nothing_close).toBe(false);
    expect(own.results.length).toBeGreaterThan(0);
    // ...and the asker's answers are exactly what they were.
    const after = await answers(world);
    for (const key of Object.keys(before)) expect(after[key], key).toEqual(before[key]);
  });
});
