import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { makeWav } from "@/test/uploads";

// Per-user upload quotas against the embedded store on real PostgreSQL: at most 3 uploads kept at once
// and 20,000 bytes uploaded; refused PUTs leave no folders behind.

const MAX_PENDING = 3;
const MAX_PENDING_BYTES = 20_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-upload-quota-"));

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let signRoute: typeof import("@/app/v1/uploads/sign/route").POST;
let putRoute: typeof import("@/app/uploads/[...path]/route").PUT;

beforeAll(async () => {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    UPLOAD_MAX_BYTES: String(64 * 1024),
    UPLOAD_MAX_PENDING: String(MAX_PENDING),
    UPLOAD_MAX_PENDING_BYTES: String(MAX_PENDING_BYTES),
  });
  delete process.env.S3_BUCKET;
  ctx = await useTestDatabase();
  signRoute = (await import("@/app/v1/uploads/sign/route")).POST;
  putRoute = (await import("@/app/uploads/[...path]/route")).PUT;
});

afterAll(async () => {
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const newCaller = () => createCaller(ctx.db);

async function sign(caller: { headers: Record<string, string> }) {
  const res = await callRoute(signRoute, "/v1/uploads/sign", {
    method: "POST",
    headers: caller.headers,
    body: { filename: "talk.wav", content_type: "audio/wav" },
  });
  return { ...res, signed: res.json as { object_path: string; upload_url: string } };
}

/** PUTs through the route handler; a ReadableStream body is sent without Content-Length (chunked). */
async function put(uploadUrl: string, body: Buffer | ReadableStream<Uint8Array>) {
  const url = new URL(uploadUrl);
  const segments = url.pathname
    .replace(/^\/uploads\//, "")
    .split("/")
    .map(decodeURIComponent);
  const length = Buffer.isBuffer(body) ? { "content-length": String(body.length) } : {};
  const request = new NextRequest(url, {
    method: "PUT",
    headers: { ...length, "content-type": "audio/wav" },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await putRoute(request, { params: Promise.resolve({ path: segments }) });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

function stream(bytes: Buffer, chunk = 4096): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + chunk)));
      offset += chunk;
    },
  });
}

/** Folders under the user's upload folder (one per stored upload), or null when the user has none. */
function userFolders(userId: string): string[] | null {
  const dir = path.join(dataDir, "uploads", "uploads", userId); // <DATA_DIR>/uploads/<object path>
  return existsSync(dir) ? readdirSync(dir) : null;
}
const folderOf = (objectPath: string) => path.basename(path.dirname(objectPath));

function expectProblem(res: { status: number; json: unknown }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json).toEqual({ detail: expect.any(String), code });
}

// 8,000 Hz 16-bit mono: 0.5 s is 8,044 bytes, 0.75 s 12,044, 1 s 16,044.
const half = makeWav(0.5);
const threeQuarters = makeWav(0.75);
const second = makeWav(1);

describe("how many uploads a user keeps", () => {
  it("the fourth signature is refused with 429 and Retry-After until the oldest expires; others are not affected", async () => {
    const caller = await newCaller();
    for (let i = 0; i < MAX_PENDING; i++) expect((await sign(caller)).status).toBe(200);
    const refused = await sign(caller);
    expectProblem(refused, 429, "upload_quota_exceeded");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await ctx.db.upload.count({ where: { userId: caller.userId } })).toBe(MAX_PENDING);

    expect((await sign(await newCaller())).status).toBe(200);
    // An expired upload frees its place.
    const oldest = await ctx.db.upload.findFirstOrThrow({
      where: { userId: caller.userId },
      orderBy: { createdAt: "asc" },
    });
    await ctx.db.upload.update({ where: { id: oldest.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await sign(caller)).status).toBe(200);
  });

  it("10 concurrent signatures: exactly 3 succeed", async () => {
    const caller = await newCaller();
    const answers = await Promise.all(Array.from({ length: 10 }, () => sign(caller)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(await ctx.db.upload.count({ where: { userId: caller.userId } })).toBe(MAX_PENDING);
  });
});

describe("how many bytes a user's uploads take", () => {
  it("a PUT past what is left answers 413 upload_space_exceeded, declared or streamed, and leaves no folder", async () => {
    const caller = await newCaller();
    const first = (await sign(caller)).signed;
    expect((await put(first.upload_url, half)).status).toBe(200); // 8,044 of 20,000

    const over = (await sign(caller)).signed;
    expectProblem(await put(over.upload_url, second), 413, "upload_space_exceeded"); // declared 16,044 > 11,956 left
    expectProblem(await put(over.upload_url, stream(second)), 413, "upload_space_exceeded"); // stopped while streaming
    expect(userFolders(caller.userId)).toEqual([folderOf(first.object_path)]);
    expect(await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: over.object_path } })).toMatchObject({
      completedAt: null,
      sizeBytes: null,
    });

    // What fits still goes in.
    expect((await put(over.upload_url, half)).status).toBe(200);
    expect(userFolders(caller.userId)?.sort()).toEqual(
      [folderOf(first.object_path), folderOf(over.object_path)].sort(),
    );
    // Full (16,088 used, 3,912 left): signing still works while the count allows, uploading 1 s does not.
    const third = (await sign(caller)).signed;
    expectProblem(await put(third.upload_url, second), 413, "upload_space_exceeded");
  });

  it("two concurrent PUTs that each fit but not together: one is stored, the other gets 413 and leaves nothing", async () => {
    const caller = await newCaller();
    const a = (await sign(caller)).signed;
    const b = (await sign(caller)).signed;
    const answers = await Promise.all([
      put(a.upload_url, stream(threeQuarters, 1024)),
      put(b.upload_url, stream(threeQuarters, 1024)),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 413]);
    const winner = answers[0].status === 200 ? a : b;
    expect(userFolders(caller.userId)).toEqual([folderOf(winner.object_path)]);
    const rows = await ctx.db.upload.findMany({ where: { userId: caller.userId, completedAt: { not: null } } });
    expect(rows.map((row) => [row.objectPath, row.sizeBytes])).toEqual([[winner.object_path, threeQuarters.length]]);
  });

  it("a user whose first PUT is refused (not audio) has no upload folder at all", async () => {
    const caller = await newCaller();
    const { signed } = await sign(caller);
    expectProblem(
      await put(signed.upload_url, Buffer.from("this is not a wav file, just text".repeat(10))),
      415,
      "unsupported_media_type",
    );
    expect(userFolders(caller.userId)).toBeNull();
    // The same URL then takes a real file.
    expect((await put(signed.upload_url, half)).status).toBe(200);
    expect(userFolders(caller.userId)).toEqual([folderOf(signed.object_path)]);
  });
});
