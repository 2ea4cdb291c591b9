import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { speech } from "@/test/speech";
import { makeWav } from "@/test/uploads";

// Signed uploads against the embedded store: real PostgreSQL, DATA_DIR in a temp folder, a 64 KiB cap.

const MAX_BYTES = 64 * 1024;
const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-uploads-"));

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let signRoute: typeof import("@/app/v1/uploads/sign/route").POST;
let putRoute: typeof import("@/app/uploads/[...path]/route").PUT;
let resolver: typeof import("@/lib/uploads/resolve-upload");
let localUrl: typeof import("@/lib/uploads/local-url");

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  process.env.UPLOAD_MAX_BYTES = String(MAX_BYTES);
  delete process.env.S3_BUCKET;
  delete process.env.UPLOAD_SECRET;
  ctx = await useTestDatabase();
  signRoute = (await import("@/app/v1/uploads/sign/route")).POST;
  putRoute = (await import("@/app/uploads/[...path]/route")).PUT;
  resolver = await import("@/lib/uploads/resolve-upload");
  localUrl = await import("@/lib/uploads/local-url");
});

afterAll(async () => {
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const newCaller = () => createCaller(ctx.db);

interface Signed {
  object_path: string;
  upload_url: string;
  source_url: string;
}

async function sign(
  caller: { headers: Record<string, string> },
  body: unknown = { filename: "Talk (final).wav", content_type: "audio/wav" },
) {
  const res = await callRoute(signRoute, "/v1/uploads/sign", { method: "POST", headers: caller.headers, body });
  return { ...res, signed: res.json as Signed };
}

/** PUTs to an upload URL through the route handler, as Next.js would call it. */
async function put(
  uploadUrl: string,
  body: Buffer | ReadableStream<Uint8Array> | null,
  headers: Record<string, string> = {},
) {
  const url = new URL(uploadUrl);
  const segments = url.pathname
    .replace(/^\/uploads\//, "")
    .split("/")
    .map(decodeURIComponent);
  const withLength = Buffer.isBuffer(body) ? { "content-length": String(body.length) } : {};
  const request = new NextRequest(url, {
    method: "PUT",
    headers: { ...withLength, ...headers },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await putRoute(request, { params: Promise.resolve({ path: segments }) });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

const wavHeaders = { "content-type": "audio/wav" };
const filesUnder = (objectPath: string) => {
  const dir = path.dirname(path.join(dataDir, "uploads", objectPath));
  return existsSync(dir) ? readdirSync(dir) : [];
};
const finalFile = (objectPath: string) => path.join(dataDir, "uploads", objectPath);

function withQuery(uploadUrl: string, change: (query: URLSearchParams) => void): string {
  const url = new URL(uploadUrl);
  change(url.searchParams);
  return url.toString();
}

function expectProblem(res: { status: number; json: unknown }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json).toEqual({ detail: expect.any(String), code });
}

describe("POST /v1/uploads/sign", () => {
  it("records the upload and answers object_path, upload_url and source_url", async () => {
    const caller = await newCaller();
    const before = Date.now();
    const { status, signed } = await sign(caller);
    expect(status).toBe(200);
    expect(Object.keys(signed).sort()).toEqual(["object_path", "source_url", "upload_url"]);
    expect(signed.object_path).toMatch(new RegExp(`^uploads/${caller.userId}/[A-Za-z0-9_-]{22}/Talk_final\\.wav$`));
    expect(signed.source_url).toBe(`upload:${signed.object_path}`);

    const url = new URL(signed.upload_url);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:3000/uploads/${signed.object_path}`);
    expect(url.searchParams.get("ct")).toBe("audio/wav");
    expect(url.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(url.searchParams.get("expires"));
    expect(expires * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 15 * 60 * 1000 - 1000);
    expect(expires * 1000).toBeLessThanOrEqual(Date.now() + 15 * 60 * 1000);

    const row = await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } });
    expect(row).toMatchObject({
      userId: caller.userId,
      filename: "Talk (final).wav",
      contentType: "audio/wav",
      completedAt: null,
      sizeBytes: null,
    });
    const hours = (row.expiresAt.getTime() - row.createdAt.getTime()) / 3600_000;
    expect(hours).toBeCloseTo(24, 5);
  });

  it("refuses types off the allow-list with 415, needs credentials, validates the body", async () => {
    const caller = await newCaller();
    for (const type of ["text/plain", "audio/mp3", "application/octet-stream", "audio/wav; codecs=1"]) {
      const res = await sign(caller, { filename: "x", content_type: type });
      expectProblem(res, 415, "unsupported_media_type");
    }
    expect((await sign(caller, { filename: "a.mkv", content_type: "Video/X-Matroska" })).status).toBe(200);
    const anonymous = await callRoute(signRoute, "/v1/uploads/sign", {
      method: "POST",
      body: { filename: "a.wav", content_type: "audio/wav" },
    });
    expectProblem(anonymous, 401, "unauthorized");
    for (const body of [
      { filename: "", content_type: "audio/wav" },
      { filename: "x".repeat(256), content_type: "audio/wav" },
      { filename: "a.wav" },
    ]) {
      expect((await sign(caller, body)).status).toBe(422);
    }
    expect(await ctx.db.upload.count({ where: { userId: caller.userId } })).toBe(1);
  });
});

describe("PUT /uploads/<object_path>", () => {
  it("stores a real WAV, marks the row complete, and resolves it for its owner only", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const wav = makeWav(0.5);
    const res = await put(signed.upload_url, wav, wavHeaders);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      object_path: signed.object_path,
      source_url: signed.source_url,
      content_type: "audio/wav",
      size_bytes: wav.length,
      detected_type: "audio/wav",
    });

    expect(readFileSync(finalFile(signed.object_path)).equals(wav)).toBe(true);
    expect(filesUnder(signed.object_path)).toEqual(["Talk_final.wav"]);
    const row = await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } });
    expect(row.completedAt).toBeInstanceOf(Date);
    expect(row.sizeBytes).toBe(wav.length);

    const resolved = await resolver.resolveUploadForUser(owner.userId, signed.object_path);
    expect(resolved).toEqual({
      objectPath: signed.object_path,
      filename: "Talk (final).wav",
      contentType: "audio/wav",
      sizeBytes: wav.length,
      path: finalFile(signed.object_path),
    });
    expect((await resolver.resolveUploadForUser(owner.userId, signed.source_url)).path).toBe(
      finalFile(signed.object_path),
    );

    // Someone else's object is the same 404 as one that does not exist.
    const other = await newCaller();
    const theirs = await rejection(resolver.resolveUploadForUser(other.userId, signed.object_path));
    const missing = await rejection(
      resolver.resolveUploadForUser(other.userId, signed.object_path.replace(/\/[^/]+$/, "/nope.wav")),
    );
    expect(theirs).toMatchObject({ status: 404, code: "not_found" });
    expect(missing).toMatchObject({ status: 404, code: "not_found", detail: theirs.detail });
  });

  it("stores speech made by espeak-ng", async () => {
    const owner = await newCaller();
    const wav = await speech("Hello from Verbatim.");
    expect(wav.length).toBeLessThan(MAX_BYTES);
    const { signed } = await sign(owner, { filename: "hello.wav", content_type: "audio/x-wav" });
    expect((await put(signed.upload_url, wav, { "content-type": "audio/x-wav" })).status).toBe(200);
    expect((await resolver.resolveUploadForUser(owner.userId, signed.object_path)).sizeBytes).toBe(wav.length);
  });

  it("refuses an expired URL, and altered paths, signatures, expiry and types with 403", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const wav = makeWav();

    const expired = localUrl.localUploadUrl(signed.object_path, "audio/wav", Math.floor(Date.now() / 1000) - 1);
    expectProblem(await put(expired, wav, wavHeaders), 403, "upload_url_expired");

    const url = new URL(signed.upload_url);
    const otherUser = await newCaller();
    const tampered = [
      signed.upload_url.replace(`/uploads/${owner.userId}/`, `/uploads/${otherUser.userId}/`),
      signed.upload_url.replace("/Talk_final.wav", "/other.wav"),
      signed.upload_url.replace(
        /\/([A-Za-z0-9_-]{22})\//,
        (_m, random: string) => `/${random.startsWith("A") ? "B" : "A"}${random.slice(1)}/`,
      ),
      `${url.origin}/uploads/uploads/${owner.userId}/..%2F..%2Fetc/passwd${url.search}`,
      withQuery(signed.upload_url, (q) => q.set("sig", flipHex(q.get("sig")!))),
      withQuery(signed.upload_url, (q) => q.set("sig", q.get("sig")!.slice(0, 63))),
      withQuery(signed.upload_url, (q) => q.delete("sig")),
      withQuery(signed.upload_url, (q) => q.set("expires", String(Number(q.get("expires")) + 3600))),
      withQuery(signed.upload_url, (q) => q.set("ct", "audio/mpeg")),
    ];
    for (const attempt of tampered) {
      const headers = attempt.includes("ct=audio%2Fmpeg") ? { "content-type": "audio/mpeg" } : wavHeaders;
      expectProblem(await put(attempt, wav, headers), 403, "upload_url_invalid");
    }
    expect(filesUnder(signed.object_path)).toEqual([]);
    // The genuine URL still works afterwards.
    expect((await put(signed.upload_url, wav, wavHeaders)).status).toBe(200);
  });

  it("refuses a Content-Type other than the signed one with 415", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const attempts: Record<string, string>[] = [
      { "content-type": "audio/mpeg" },
      { "content-type": "audio/wav; charset=binary" },
      {},
    ];
    for (const headers of attempts) {
      expectProblem(await put(signed.upload_url, makeWav(), headers), 415, "content_type_mismatch");
    }
    expect(filesUnder(signed.object_path)).toEqual([]);
  });

  it("refuses bodies over UPLOAD_MAX_BYTES with 413, declared or streamed, and keeps nothing", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const big = makeWav(5); // ~80 KB > 64 KiB
    expect(big.length).toBeGreaterThan(MAX_BYTES);

    expectProblem(await put(signed.upload_url, big, wavHeaders), 413, "payload_too_large");
    // No Content-Length (chunked): counted while streaming, aborted past the cap. The body is
    // endless (a WAV header, then zeros) to show reading stops rather than running to the end.
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pulled === 0 ? big.subarray(0, 8192) : new Uint8Array(8192);
        pulled += next.length;
        controller.enqueue(next);
      },
      cancel() {
        cancelled = true;
      },
    });
    expectProblem(await put(signed.upload_url, endless, wavHeaders), 413, "payload_too_large");
    await waitFor(() => cancelled);
    expect(pulled).toBeLessThan(MAX_BYTES * 4);
    // A Content-Length that understates the body does not get past the count either.
    expectProblem(
      await put(signed.upload_url, streamOf(big), { ...wavHeaders, "content-length": "1000" }),
      413,
      "payload_too_large",
    );

    expect(filesUnder(signed.object_path)).toEqual([]);
    expect(
      (await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } })).completedAt,
    ).toBeNull();
    // Exactly at the cap is fine.
    const exact = Buffer.concat([makeWav(), Buffer.alloc(MAX_BYTES - makeWav().length)]);
    expect((await put(signed.upload_url, exact, wavHeaders)).status).toBe(200);
  });

  it("refuses a file that is not audio or video with 415 and deletes it", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    for (const body of [
      Buffer.from("%PDF-1.7\nnot audio at all\n"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      Buffer.alloc(0),
    ]) {
      expectProblem(await put(signed.upload_url, body, wavHeaders), 415, "unsupported_media_type");
      expect(filesUnder(signed.object_path)).toEqual([]);
    }
    const row = await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } });
    expect(row).toMatchObject({ completedAt: null, sizeBytes: null });
    expect(await rejection(resolver.resolveUploadForUser(owner.userId, signed.object_path))).toMatchObject({
      status: 404,
    });
  });

  it("leaves nothing behind when the body is interrupted", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const wav = makeWav();
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(wav.subarray(0, 1000));
        } else controller.error(new Error("connection reset"));
      },
    });
    expectProblem(await put(signed.upload_url, broken, wavHeaders), 400, "incomplete_upload");
    expectProblem(
      await put(signed.upload_url, streamOf(wav.subarray(0, 1000)), {
        ...wavHeaders,
        "content-length": String(wav.length),
      }),
      400,
      "incomplete_upload",
    );
    expect(filesUnder(signed.object_path)).toEqual([]);
    expect((await put(signed.upload_url, wav, wavHeaders)).status).toBe(200);
  });

  it("refuses a second upload to a completed path with 409", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const first = makeWav(0.25);
    expect((await put(signed.upload_url, first, wavHeaders)).status).toBe(200);
    expectProblem(await put(signed.upload_url, makeWav(0.5), wavHeaders), 409, "upload_exists");
    expect(readFileSync(finalFile(signed.object_path)).equals(first)).toBe(true);
  });

  it("lets exactly one of two concurrent PUTs win, without mixing their bytes", async () => {
    const owner = await newCaller();
    const { signed } = await sign(owner);
    const slow = makeWav(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let step = 0;
    const held = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (step++ === 0) return controller.enqueue(slow.subarray(0, 4096));
        await gate;
        controller.enqueue(slow.subarray(4096));
        controller.close();
      },
    });
    const first = put(signed.upload_url, held, { ...wavHeaders, "content-length": String(slow.length) });
    const partial = `${finalFile(signed.object_path)}.partial`;
    await waitFor(() => existsSync(partial));
    expect(existsSync(finalFile(signed.object_path))).toBe(false); // never visible while in progress

    expectProblem(await put(signed.upload_url, makeWav(0.3), wavHeaders), 409, "upload_in_progress");
    release();
    expect((await first).status).toBe(200);
    expect(readFileSync(finalFile(signed.object_path)).equals(slow)).toBe(true);

    // Both at once, with different bodies: one 200, one 409, and the file is the winner's.
    const again = (await sign(owner)).signed;
    const bodies = [makeWav(0.3), makeWav(0.6)];
    const results = await Promise.all(bodies.map((body) => put(again.upload_url, body, wavHeaders)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = bodies[results.findIndex((r) => r.status === 200)];
    expect(readFileSync(finalFile(again.object_path)).equals(winner)).toBe(true);
    expect((await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: again.object_path } })).sizeBytes).toBe(
      winner.length,
    );
    expect(filesUnder(again.object_path)).toEqual(["Talk_final.wav"]);
  });
});

describe("resolveUploadForUser and deleteExpiredUploads", () => {
  it("answers 404 for incomplete, expired, malformed and unknown paths", async () => {
    const owner = await newCaller();
    const incomplete = (await sign(owner)).signed;
    const done = (await sign(owner)).signed;
    expect((await put(done.upload_url, makeWav(), wavHeaders)).status).toBe(200);
    const later = new Date(Date.now() + 25 * 3600_000);
    for (const [objectPath, now] of [
      [incomplete.object_path, undefined],
      [done.object_path, later],
      ["../../etc/passwd", undefined],
      ["", undefined],
      [`uploads/${owner.userId}/AAAAAAAAAAAAAAAAAAAAAA/x.wav`, undefined],
    ] as const) {
      expect(await rejection(resolver.resolveUploadForUser(owner.userId, objectPath, now)), objectPath).toMatchObject({
        status: 404,
        code: "not_found",
      });
    }
  });

  it("deletes expired files and rows, and nothing else", async () => {
    const owner = await newCaller();
    const expiring = (await sign(owner)).signed;
    const neverUploaded = (await sign(owner)).signed;
    expect((await put(expiring.upload_url, makeWav(), wavHeaders)).status).toBe(200);
    const keep = (await sign(owner)).signed;
    expect((await put(keep.upload_url, makeWav(), wavHeaders)).status).toBe(200);
    await ctx.db.upload.update({
      where: { objectPath: keep.object_path },
      data: { expiresAt: new Date(Date.now() + 48 * 3600_000) },
    });

    const later = new Date(Date.now() + 25 * 3600_000);
    const result = await resolver.deleteExpiredUploads(later);
    expect(result.failed).toBe(0);
    expect(result.deleted).toBeGreaterThanOrEqual(2);
    for (const gone of [expiring, neverUploaded]) {
      expect(await ctx.db.upload.findUnique({ where: { objectPath: gone.object_path } })).toBeNull();
      expect(existsSync(finalFile(gone.object_path))).toBe(false);
      expect(existsSync(path.dirname(finalFile(gone.object_path)))).toBe(false); // folder tidied
    }
    expect(existsSync(finalFile(keep.object_path))).toBe(true);
    expect((await resolver.resolveUploadForUser(owner.userId, keep.object_path)).path).toBe(
      finalFile(keep.object_path),
    );
    expect(await resolver.deleteExpiredUploads(later)).toEqual({ deleted: 0, failed: 0 });
  });
});

async function rejection(promise: Promise<unknown>): Promise<{ status: number; code: string; detail: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string; detail: string };
  }
  throw new Error("expected a rejection");
}

function flipHex(hex: string): string {
  return (hex[0] === "0" ? "1" : "0") + hex.slice(1);
}

function chunked(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  const chunks = chunked(bytes, 4096);
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function waitFor(check: () => boolean, timeoutMs = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
