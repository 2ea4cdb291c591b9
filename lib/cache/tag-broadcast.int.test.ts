import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { tagsManifest } from "next/dist/server/lib/incremental-cache/tags-manifest.external.js";
import { createTestDatabase } from "@/test/pg";
import { startTagBroadcast } from "@/lib/cache/tag-broadcast";

// Two app processes, as far as the cache is concerned: this one (Next.js's cache handler loaded, the
// broadcast started) and "another", a plain PostgreSQL session on the same channel.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let other: pg.Client;
let broadcast: { stop(): Promise<void> };
const heard: { from: string; tags: string[] }[] = [];

async function until(condition: () => boolean, what: string, poll: () => Promise<void> = async () => {}) {
  for (let i = 0; i < 400 && !condition(); i++) {
    await poll();
    if (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!condition()) throw new Error(`never: ${what}`);
}

beforeAll(async () => {
  database = await createTestDatabase();
  // The handler Next.js loads (next.config.ts cacheHandler): it installs the hook the broadcast uses.
  await import("@/lib/cache/next-cache-handler.mjs");
  broadcast = startTagBroadcast(database.url);
  other = new pg.Client({ connectionString: database.url });
  await other.connect();
  await other.query("LISTEN verbatim_cache_tags");
  other.on("notification", (note) => heard.push(JSON.parse(note.payload!)));
  // Until this process listens too: its LISTEN is its session's last statement.
  let listening = false;
  await until(
    () => listening,
    "this process listens",
    async () => {
      const { rows } = await other.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'verbatim cache tags' AND query LIKE 'LISTEN%' AND state = 'idle'`,
      );
      listening = rows.length > 0;
    },
  );
});

afterAll(async () => {
  await broadcast?.stop();
  await other?.end();
  await database?.drop();
});

describe("cache tags between app processes", () => {
  it("a tag expired here is sent to the others; one expired there is expired here", async () => {
    const { default: Handler } = await import("@/lib/cache/next-cache-handler.mjs");
    expect(tagsManifest.get("_N_T_/t/here-abc123")).toBeUndefined();
    const handler = new Handler({
      fs: undefined,
      dev: false,
      flushToDisk: false,
      serverDistDir: "/nonexistent",
      revalidatedTags: [],
      maxMemoryCacheSize: 0,
    });
    await handler.revalidateTag(["_N_T_/t/here-abc123"]);
    expect(tagsManifest.get("_N_T_/t/here-abc123")?.expired).toBeGreaterThan(0);
    await until(
      () => heard.some((message) => message.tags.includes("_N_T_/t/here-abc123")),
      "the other process hears of it",
    );

    expect(tagsManifest.get("_N_T_/t/there-abc123")).toBeUndefined();
    await other.query("SELECT pg_notify('verbatim_cache_tags', $1)", [
      JSON.stringify({
        from: "another-process",
        tags: ["_N_T_/t/there-abc123", "public-index"],
        durations: { expire: 0 },
      }),
    ]);
    await until(() => tagsManifest.get("_N_T_/t/there-abc123") !== undefined, "this process expires it");
    expect(tagsManifest.get("public-index")?.expired).toBeGreaterThan(0);
  });
});
