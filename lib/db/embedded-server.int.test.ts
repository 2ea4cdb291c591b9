import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_DIR_LOCK_FILE, DataDirLocked } from "@/lib/db/data-dir-lock";
import { EARLY_EMBEDDED, type EarlyEmbedded } from "@/lib/db/embedded-messages";
import { seedEmbeddedDataDir } from "../../test/shared-fixtures";

// The embedded default as the app opens it (no DATABASE_URL): PGlite in a thread of its own, served on a Unix
// socket under DATA_DIR, reached through pg's pool by Prisma and the hot statements alike.

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "verbatim-thread-"));
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = dataDir;
  await seedEmbeddedDataDir(dataDir);
  process.env.AUTH_SECRET ??= "integration-tests-secret-integration-tests";
});
afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db/client");
  await closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs `read` with the process in another time zone than UTC. */
async function inNewYork<T>(read: () => Promise<T>): Promise<T> {
  const zone = process.env.TZ;
  process.env.TZ = "America/New_York";
  try {
    return await read();
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
}

describe("the embedded database in a thread of its own", () => {
  it("is served on a socket in a folder only this user can enter; said to be opening while it opens", async () => {
    const { dbKind, embeddedOpening, pgPool } = await import("@/lib/db/client");
    expect(embeddedOpening()).toBe(false);
    const opening = dbKind();
    // /health says "busy", not "down", for a database still opening (a first start on a slow machine).
    expect(embeddedOpening()).toBe(true);
    expect(await opening).toBe("pglite");
    expect(embeddedOpening()).toBe(false);
    const socketDir = path.join(dataDir, "socket");
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(socketDir, ".s.PGSQL.5432")).isSocket()).toBe(true);
    expect((await pgPool()).options.host).toBe(socketDir);
  });

  it("leaves the event loop free while a long statement runs", async () => {
    const { hotQuery } = await import("@/lib/db/hot-sql");
    await hotQuery("warm", "SELECT 1", []);
    // Turns of the event loop while the statement runs. In the app's own thread, PGlite would run the whole
    // statement inside one turn.
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const rows = await hotQuery<{ n: string }>(
      "long",
      "SELECT count(*) AS n FROM generate_series(1, 3000) a, generate_series(1, 1000) b WHERE (a * b) % 7 = 3",
      [],
    );
    running = false;
    expect(rows).toEqual([{ n: expect.any(String) }]);
    expect(turns).toBeGreaterThan(100);
  });

  it("reads what Prisma wrote (UTC timestamps, JSON), and a statement sent during a transaction runs after it", async () => {
    const { getDb } = await import("@/lib/db/client");
    const { hotQuery } = await import("@/lib/db/hot-sql");
    const db = await getDb();
    const fetchedAt = new Date("2026-01-02T03:04:05.678Z");
    const stored = await db.transcript.create({
      data: {
        platform: "youtube",
        videoId: "thread-test",
        lang: "en",
        origin: "captions",
        sourceUrl: "https://www.youtube.com/watch?v=thread-test",
        segments: [{ start: 0, end: 1.5, text: "hello" }],
        durationSeconds: 2,
        fetchedAt,
      },
    });
    const read = () =>
      hotQuery<{ id: string; origin: string; segments: unknown; fetchedAt: Date; durationSeconds: number }>(
        "test-transcript",
        `SELECT "id", "source" AS "origin", "segments", "fetchedAt", "durationSeconds" FROM "Transcript" WHERE "videoId" = $1`,
        ["thread-test"],
      );
    const expected = {
      id: stored.id,
      origin: "captions",
      segments: [{ start: 0, end: 1.5, text: "hello" }],
      fetchedAt,
      durationSeconds: 2,
    };
    expect(await inNewYork(read)).toEqual([expected]);

    // One session, one connection: the read waits for the transaction to end, and never sees inside it.
    let readDuringTransaction: Promise<unknown[]> | undefined;
    await expect(
      db.$transaction(async (tx) => {
        await tx.transcript.update({ where: { id: stored.id }, data: { durationSeconds: 99 } });
        readDuringTransaction = read();
        await tx.$queryRaw`SELECT 1`;
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await readDuringTransaction).toEqual([expected]);
  });

  it("gives a new connection a session of its own: what the one before prepared is gone", async () => {
    const { pgPool } = await import("@/lib/db/client");
    const { hotQuery } = await import("@/lib/db/hot-sql");
    const pool = await pgPool();
    await hotQuery("prepared-once", "SELECT 2 AS two", []);
    const connection = await pool.connect();
    connection.release(new Error("dropped by the test"));
    // The same name prepared again on the new connection, as pg does for a connection it has not prepared it on.
    expect(await hotQuery("prepared-once", "SELECT 2 AS two", [])).toEqual([{ two: 2 }]);
  });

  it("answers a ping as busy, without waiting its turn, while another request holds the one connection", async () => {
    const { pgPool, pingEmbedded } = await import("@/lib/db/client");
    const held = await (await pgPool()).connect();
    try {
      expect(await pingEmbedded(1)).toBe("busy");
    } finally {
      held.release();
    }
    expect(await pingEmbedded(60_000)).toBe("answered");
  });

  it("makes /health say busy, not ok, while another request holds the one connection", async () => {
    const { pgPool } = await import("@/lib/db/client");
    const { checkHealth } = await import("@/lib/health/check-health");
    const held = await (await pgPool()).connect();
    try {
      expect(await checkHealth()).toMatchObject({ status: "busy", database: "busy", database_kind: "pglite" });
    } finally {
      held.release();
    }
    expect(await checkHealth()).toMatchObject({ status: "ok", database: "ok", database_kind: "pglite" });
  });
});

describe("the embedded database's thread, when it stops on its own", () => {
  it("is started again; a statement sent meanwhile is database_unavailable (503), not a 500", async () => {
    const { startEmbeddedServer } = await import("@/lib/db/embedded-server");
    const { isDatabaseUnavailable } = await import("@/lib/db/unavailable");
    const spawned = vi.spyOn(Worker.prototype, "on");
    const errors: string[] = [];
    await seedEmbeddedDataDir(path.join(dataDir, "restarted"));
    const server = await startEmbeddedServer(path.join(dataDir, "restarted"), {
      info: () => {},
      error: (_fields, message) => errors.push(message),
    });
    const pool = new pg.Pool({ host: server.socketDir, user: "postgres", database: "postgres", max: 1 });
    pool.on("error", () => {});
    try {
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      const thread = spawned.mock.contexts.at(-1) as Worker;
      spawned.mockRestore();
      await thread.terminate();
      expect(server.serving()).toBe(false);
      const meanwhile = await pool.query("SELECT 2").catch((error: unknown) => error);
      expect(isDatabaseUnavailable(meanwhile)).toBe(true);
      let answer: unknown;
      for (let attempt = 0; attempt < 600 && answer === undefined; attempt++)
        answer = await pool.query("SELECT 3 AS three").then(
          (result) => result.rows,
          async (error: unknown) => {
            if (!isDatabaseUnavailable(error)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          },
        );
      expect(answer).toEqual([{ three: 3 }]);
      expect(server.serving()).toBe(true);
      expect(errors).toEqual(["embedded database thread stopped: starting it again"]);
    } finally {
      await pool.end();
      await server.close(5000);
    }
  });
});

describe("the thread `npm start` starts before Next.js loads", () => {
  let entry: string;
  beforeAll(async () => {
    // In the project, as the build's bundle is, so that its packages are found in node_modules.
    entry = path.join(process.cwd(), "node_modules", ".cache", `verbatim-early-${process.pid}`, "worker.mjs");
    const { bundleEmbeddedWorker } = await import("../../scripts/build-embedded-worker");
    await bundleEmbeddedWorker(entry);
  });
  afterAll(() => rm(path.dirname(entry), { recursive: true, force: true }));

  const earlyThread = () => (globalThis as { [EARLY_EMBEDDED]?: EarlyEmbedded })[EARLY_EMBEDDED];

  it("is the thread the app then serves from, and closes with it", async () => {
    const { startEmbeddedEarly } = await import("../../scripts/embedded-early.mjs");
    const { startEmbeddedServer } = await import("@/lib/db/embedded-server");
    const folder = path.join(dataDir, "early");
    await seedEmbeddedDataDir(folder);
    expect(startEmbeddedEarly(entry, folder)).toBe(true);
    const thread = earlyThread()!.worker;
    const exited = new Promise((resolve) => thread.once("exit", resolve));
    const server = await startEmbeddedServer(folder, { info: () => {}, error: () => {} });
    expect(earlyThread()).toBeUndefined();
    const pool = new pg.Pool({ host: server.socketDir, user: "postgres", database: "postgres", max: 1 });
    try {
      expect(server.socketDir).toBe(path.join(folder, "socket"));
      expect((await pool.query("SELECT count(*)::int AS n FROM _prisma_migrations")).rows[0].n).toBeGreaterThan(0);
    } finally {
      await pool.end();
      await server.close(5000);
    }
    await exited;
  });

  it("started for another folder than the app's settings name, is closed; the app opens its own", async () => {
    const { startEmbeddedEarly } = await import("../../scripts/embedded-early.mjs");
    const { startEmbeddedServer } = await import("@/lib/db/embedded-server");
    await seedEmbeddedDataDir(path.join(dataDir, "elsewhere"));
    expect(startEmbeddedEarly(entry, path.join(dataDir, "elsewhere"))).toBe(true);
    const thread = earlyThread()!.worker;
    const exited = new Promise((resolve) => thread.once("exit", resolve));
    const folder = path.join(dataDir, "settings");
    await seedEmbeddedDataDir(folder);
    const server = await startEmbeddedServer(folder, { info: () => {}, error: () => {} });
    try {
      expect(server.socketDir).toBe(path.join(folder, "socket"));
      await exited;
      expect(server.serving()).toBe(true);
    } finally {
      await server.close(5000);
    }
  });

  it("on a folder another process holds, opens nothing and fails with the sentence naming it; so does the app's own start", async () => {
    const { startEmbeddedEarly } = await import("../../scripts/embedded-early.mjs");
    const { startEmbeddedServer } = await import("@/lib/db/embedded-server");
    const folder = path.join(dataDir, "held");
    mkdirSync(folder);
    // The test runner's own parent: a running process that is not this one.
    const holder = { pid: process.ppid, port: 4321, hostname: os.hostname(), since: new Date().toISOString() };
    writeFileSync(path.join(folder, DATA_DIR_LOCK_FILE), JSON.stringify(holder));
    const sentence = `The data folder ${folder} is in use by another Verbatim process (pid ${process.ppid}, port 4321): one process per DATA_DIR. Stop that one, or give this one another DATA_DIR.`;

    expect(startEmbeddedEarly(entry, folder, 3000)).toBe(true);
    const early = earlyThread()!;
    delete (globalThis as { [EARLY_EMBEDDED]?: EarlyEmbedded })[EARLY_EMBEDDED];
    await expect(early.ready).rejects.toMatchObject({ locked: true, message: sentence });

    const refused = await startEmbeddedServer(folder, { info: () => {}, error: () => {} }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DataDirLocked);
    expect((refused as Error).message).toBe(sentence);
    expect(existsSync(path.join(folder, "pglite"))).toBe(false);
  });

  it("is not started where the build left no bundle (`next build` alone)", async () => {
    const { startEmbeddedEarly } = await import("../../scripts/embedded-early.mjs");
    expect(startEmbeddedEarly(path.join(dataDir, "no-such-bundle.mjs"), path.join(dataDir, "unused"))).toBe(false);
    expect(earlyThread()).toBeUndefined();
  });
});
