import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { makeWav } from "@/test/uploads";
import { createOutbound } from "@/lib/http/outbound";
import { downloadAudioUrl } from "@/lib/media/download";
import { presignPut, s3Config } from "@/lib/uploads/s3";
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";

// Uploads with S3_BUCKET set and temporary credentials (S3_SESSION_TOKEN), against a small S3 stand-in
// over real HTTP that checks every presigned request the way S3 does (signature over method, path,
// query and signed headers, recomputed by the AWS SDK's signer; expiry; the session token). The
// endpoint is http://localhost:<port>, a name the outbound guard refuses, as it refuses a MinIO at
// http://minio:9000: the app's own bucket must be read anyway.

const ACCESS_KEY = "AKIDUPLOADTEST";
const SECRET_KEY = "uploads-test-secret-key-uploads-test-secret";
/** Temporary credentials (STS, IRSA): every request must carry this token, inside its signature. */
const SESSION_TOKEN = "FwoGZXIvYXdzEXAMPLE//session+token=";
const BUCKET = "media";
const MAX_BYTES = 64 * 1024;

const objects = new Map<string, { body: Buffer; contentType: string }>();
const seen: { method: string; path: string; status: number }[] = [];
let server: Server;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let signRoute: typeof import("@/app/v1/uploads/sign/route").POST;
let putRoute: typeof import("@/app/uploads/[...path]/route").PUT;
let resolver: typeof import("@/lib/uploads/resolve-upload");

type SourceData = string | ArrayBuffer | ArrayBufferView;

/** SHA-256 / HMAC-SHA-256 for the AWS SDK's signer, from node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash =
      secret === undefined
        ? createHash("sha256")
        : createHmac("sha256", typeof secret === "string" ? secret : Buffer.from(secret as Uint8Array));
  }
  update(data: SourceData): void {
    this.hash.update(typeof data === "string" ? data : Buffer.from(data as Uint8Array));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {}
}

/**
 * Checks a presigned request the way S3 does, with AWS's own signer (@smithy/signature-v4, what the
 * AWS SDK uses) recomputing the signature, not the code under test: credential scope, expiry, the
 * session token the temporary credentials require, and the signature over method, path, query and
 * the signed headers.
 */
async function verify(request: IncomingMessage, url: URL): Promise<string | null> {
  const q = url.searchParams;
  const signature = q.get("X-Amz-Signature");
  const [accessKey, day, region, service] = (q.get("X-Amz-Credential") ?? "").split("/");
  if (!signature || accessKey !== ACCESS_KEY || region !== "us-east-1" || service !== "s3") return "AccessDenied";
  if (q.get("X-Amz-Security-Token") !== SESSION_TOKEN) return "InvalidToken";
  const stamp = q.get("X-Amz-Date") ?? "";
  const date = new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  if (stamp.slice(0, 8) !== day || Date.now() > date.getTime() + Number(q.get("X-Amz-Expires")) * 1000)
    return "AccessDenied";
  const headers: Record<string, string> = { "x-amz-content-sha256": "UNSIGNED-PAYLOAD" };
  for (const name of (q.get("X-Amz-SignedHeaders") ?? "").split(";"))
    headers[name] = String(request.headers[name] ?? "");
  const query = Object.fromEntries([...q.entries()].filter(([name]) => name !== "X-Amz-Signature"));
  const signer = new SignatureV4({
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY, sessionToken: SESSION_TOKEN },
    region: "us-east-1",
    service: "s3",
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const expected = await signer.presign(
    {
      method: request.method!,
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query,
      headers,
    },
    {
      signingDate: date,
      expiresIn: Number(q.get("X-Amz-Expires")),
      unsignableHeaders: new Set(["x-amz-content-sha256"]),
      unhoistableHeaders: new Set(["x-amz-content-sha256"]),
    },
  );
  return expected.query?.["X-Amz-Signature"] === signature ? null : "SignatureDoesNotMatch";
}

async function fakeS3(
  request: IncomingMessage,
  url: URL,
): Promise<{ status: number; body?: Buffer; headers?: Record<string, string> }> {
  const problem = await verify(request, url);
  if (problem) return { status: 403, body: Buffer.from(`<Error><Code>${problem}</Code></Error>`) };
  const prefix = `/${BUCKET}/`;
  if (!url.pathname.startsWith(prefix)) return { status: 404 };
  const key = decodeURIComponent(url.pathname.slice(prefix.length));
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method === "PUT") {
    objects.set(key, { body: Buffer.concat(chunks), contentType: String(request.headers["content-type"]) });
    return { status: 200, headers: { etag: '"x"' } };
  }
  if (request.method === "DELETE") {
    objects.delete(key);
    return { status: 204 };
  }
  const object = objects.get(key);
  if (!object) return { status: 404, body: Buffer.from("<Error><Code>NoSuchKey</Code></Error>") };
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ""));
  if (!range) return { status: 200, body: object.body, headers: { "content-type": object.contentType } };
  if (object.body.length === 0) return { status: 416 };
  const end = Math.min(Number(range[2]), object.body.length - 1);
  return {
    status: 206,
    body: object.body.subarray(Number(range[1]), end + 1),
    headers: { "content-range": `bytes ${range[1]}-${end}/${object.body.length}`, "content-type": object.contentType },
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, "http://127.0.0.1");
    fakeS3(request, url).then(
      ({ status, body, headers }) => {
        seen.push({ method: request.method!, path: url.pathname, status });
        response.writeHead(status, headers).end(body);
      },
      (error) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.S3_BUCKET = BUCKET;
  process.env.S3_ENDPOINT = `http://localhost:${(server.address() as AddressInfo).port}`;
  process.env.S3_SESSION_TOKEN = SESSION_TOKEN;
  process.env.S3_FORCE_PATH_STYLE = "true";
  process.env.S3_ACCESS_KEY_ID = ACCESS_KEY;
  process.env.S3_SECRET_ACCESS_KEY = SECRET_KEY;
  process.env.UPLOAD_MAX_BYTES = String(MAX_BYTES);
  ctx = await useTestDatabase();
  signRoute = (await import("@/app/v1/uploads/sign/route")).POST;
  putRoute = (await import("@/app/uploads/[...path]/route")).PUT;
  resolver = await import("@/lib/uploads/resolve-upload");
});

afterAll(async () => {
  await ctx?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

const newCaller = () => createCaller(ctx.db);

async function signFor(caller: { headers: Record<string, string> }, content_type = "audio/wav") {
  const res = await callRoute(signRoute, "/v1/uploads/sign", {
    method: "POST",
    headers: caller.headers,
    body: { filename: "talk.wav", content_type },
  });
  expect(res.status).toBe(200);
  return res.json as { object_path: string; upload_url: string; source_url: string };
}

/** PUT straight to the storage, as a client does with upload_url. */
function putObject(url: string, body: Buffer | string, contentType: string) {
  return fetch(url, {
    method: "PUT",
    body: typeof body === "string" ? body : new Uint8Array(body),
    headers: { "content-type": contentType },
  });
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; code: string };
  }
  throw new Error("expected a rejection");
}

describe("uploads to S3-compatible storage", () => {
  it("signs a PUT URL straight to the bucket that only takes the signed Content-Type", async () => {
    const owner = await newCaller();
    const signed = await signFor(owner);
    const url = new URL(signed.upload_url);
    expect(url.origin).toBe(process.env.S3_ENDPOINT);
    expect(url.pathname).toBe(`/${BUCKET}/${signed.object_path}`);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-type;host");
    expect(signed.source_url).toBe(`upload:${signed.object_path}`);

    const wav = makeWav();
    const wrongType = await putObject(signed.upload_url, wav, "audio/mpeg");
    expect(wrongType.status).toBe(403);
    const tampered = await putObject(signed.upload_url.replace("talk.wav", "other.wav"), wav, "audio/wav");
    expect(tampered.status).toBe(403);
    expect(objects.size).toBe(0);

    const ok = await putObject(signed.upload_url, wav, "audio/wav");
    expect(ok.status).toBe(200);

    // Not complete until the pipeline asks: then checked (size, first bytes) and marked.
    expect(
      (await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } })).completedAt,
    ).toBeNull();
    const resolved = await resolver.resolveUploadForUser(owner.userId, signed.source_url);
    expect(resolved).toMatchObject({ objectPath: signed.object_path, contentType: "audio/wav", sizeBytes: wav.length });
    expect(resolved.path).toBeUndefined();
    expect(new URL(resolved.url!).searchParams.get("X-Amz-Expires")).toBe("3600");
    expect(new URL(resolved.url!).searchParams.get("X-Amz-Security-Token")).toBe(SESSION_TOKEN);
    // What the pipeline does with it: the storage's own client reads the bucket on "localhost"...
    const dir = mkdtempSync(path.join(tmpdir(), "s3-int-"));
    try {
      const file = await downloadAudioUrl(resolved.url!, dir, { outbound: resolved.outbound!, maxBytes: MAX_BYTES });
      expect(readFileSync(file.path).equals(wav)).toBe(true);
      // ... which the guard for user-supplied URLs (the app instance, before) refuses.
      const guarded = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });
      await expect(
        downloadAudioUrl(resolved.url!, path.join(dir, "x"), { outbound: guarded, maxBytes: MAX_BYTES }),
      ).rejects.toMatchObject({
        name: "OutboundError",
        code: "address_not_allowed",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const row = await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: signed.object_path } });
    expect(row.completedAt).toBeInstanceOf(Date);
    expect(row.sizeBytes).toBe(wav.length);

    expect(
      await rejection(resolver.resolveUploadForUser((await newCaller()).userId, signed.object_path)),
    ).toMatchObject({ status: 404, code: "not_found" });
  });

  it("answers 404 before the file is uploaded, and refuses (and deletes) non-media and oversize objects", async () => {
    const owner = await newCaller();
    const pending = await signFor(owner);
    expect(await rejection(resolver.resolveUploadForUser(owner.userId, pending.object_path))).toMatchObject({
      status: 404,
    });

    const text = await signFor(owner);
    await putObject(text.upload_url, "just text, not audio", "audio/wav");
    expect(await rejection(resolver.resolveUploadForUser(owner.userId, text.object_path))).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    expect(objects.has(text.object_path)).toBe(false);

    const big = await signFor(owner);
    await putObject(big.upload_url, makeWav(5), "audio/wav");
    expect(await rejection(resolver.resolveUploadForUser(owner.userId, big.object_path))).toMatchObject({
      status: 413,
      code: "payload_too_large",
    });
    expect(objects.has(big.object_path)).toBe(false);
  });

  it("refuses what the old signer produced for temporary credentials: no session token", async () => {
    const storage = s3Config()!;
    const withoutToken = {
      ...storage,
      credentials: {
        accessKeyId: storage.credentials.accessKeyId,
        secretAccessKey: storage.credentials.secretAccessKey,
      },
    };
    const url = await presignPut(withoutToken, "uploads/x/AAAAAAAAAAAAAAAAAAAAAA/a.wav", "audio/wav", 900);
    const res = await putObject(url, makeWav(), "audio/wav");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("InvalidToken");
    const tampered = (await presignPut(storage, "uploads/x/AAAAAAAAAAAAAAAAAAAAAA/a.wav", "audio/wav", 900)).replace(
      "session",
      "sessioN",
    );
    expect((await putObject(tampered, makeWav(), "audio/wav")).status).toBe(403);
  });

  it("does not accept PUTs on the app itself", async () => {
    const request = new NextRequest(
      "http://localhost:3000/uploads/uploads/u/AAAAAAAAAAAAAAAAAAAAAA/a.wav?expires=1&ct=audio%2Fwav&sig=00",
      {
        method: "PUT",
        body: new Uint8Array(makeWav()),
        headers: { "content-type": "audio/wav" },
      },
    );
    const response = await putRoute(request, {
      params: Promise.resolve({ path: ["uploads", "u", "AAAAAAAAAAAAAAAAAAAAAA", "a.wav"] }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: expect.any(String), code: "not_found" });
  });

  it("deletes expired objects from the bucket, then their rows", async () => {
    const owner = await newCaller();
    const signed = await signFor(owner);
    await putObject(signed.upload_url, makeWav(), "audio/wav");
    expect(objects.has(signed.object_path)).toBe(true);
    const result = await resolver.deleteExpiredUploads(new Date(Date.now() + 25 * 3600_000));
    expect(result.failed).toBe(0);
    expect(objects.has(signed.object_path)).toBe(false);
    expect(
      seen.some((r) => r.method === "DELETE" && r.path === `/${BUCKET}/${signed.object_path}` && r.status === 204),
    ).toBe(true);
    expect(await ctx.db.upload.findUnique({ where: { objectPath: signed.object_path } })).toBeNull();
  });
});
