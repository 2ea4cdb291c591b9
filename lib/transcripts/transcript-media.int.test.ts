import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import { makeWav } from "@/test/uploads";

// GET /v1/transcripts/{id}/media: a user's own upload played back beside its transcript (embedded store).

const dataDir = mkdtempSync(path.join(tmpdir(), "verbatim-media-"));
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let mediaRoute: typeof import("@/app/v1/transcripts/[id]/media/route").GET;
let signRoute: typeof import("@/app/v1/uploads/sign/route").POST;
let putRoute: typeof import("@/app/uploads/[...path]/route").PUT;

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  delete process.env.S3_BUCKET;
  ctx = await useTestDatabase();
  mediaRoute = (await import("@/app/v1/transcripts/[id]/media/route")).GET;
  signRoute = (await import("@/app/v1/uploads/sign/route")).POST;
  putRoute = (await import("@/app/uploads/[...path]/route")).PUT;
});

afterAll(async () => {
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

const wav = makeWav(0.5);

/** Signs and PUTs a WAV as `caller`, then records the transcript of it in the caller's history. */
async function uploadedTranscript(caller: { userId: string; headers: Record<string, string> }) {
  const signed = (
    await callRoute(signRoute, "/v1/uploads/sign", {
      method: "POST",
      headers: caller.headers,
      body: { filename: "talk.wav", content_type: "audio/wav" },
    })
  ).json as {
    object_path: string;
    upload_url: string;
  };
  const url = new URL(signed.upload_url);
  const segments = url.pathname
    .replace(/^\/uploads\//, "")
    .split("/")
    .map(decodeURIComponent);
  const request = new NextRequest(url, {
    method: "PUT",
    headers: { "content-type": "audio/wav", "content-length": String(wav.length) },
    body: new Uint8Array(wav),
  });
  expect((await putRoute(request, { params: Promise.resolve({ path: segments }) })).status).toBeLessThan(300);
  const videoId = signed.object_path.split("/")[2];
  return seedTranscript(ctx.db, caller.userId, {
    platform: "upload",
    videoId,
    sourceUrl: `upload:${signed.object_path}`,
    title: "talk.wav",
  });
}

async function media(id: string, headers: Record<string, string>) {
  const request = new NextRequest(new URL(`/v1/transcripts/${id}/media`, "http://localhost:3000"), { headers });
  const response = await mediaRoute(request, { params: Promise.resolve({ id }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("GET /v1/transcripts/{id}/media", () => {
  it("streams the caller's own upload, whole or by byte range", async () => {
    const caller = await createCaller(ctx.db);
    const transcript = await uploadedTranscript(caller);

    const whole = await media(transcript.id, caller.headers);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.bytes.equals(wav)).toBe(true);

    const part = await media(transcript.id, { ...caller.headers, range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${wav.length}`);
    expect(part.bytes.equals(wav.subarray(10, 20))).toBe(true);

    const tail = await media(transcript.id, { ...caller.headers, range: "bytes=-4" });
    expect(tail.bytes.equals(wav.subarray(wav.length - 4))).toBe(true);

    const beyond = await media(transcript.id, { ...caller.headers, range: `bytes=${wav.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${wav.length}`);
    expect(JSON.parse(beyond.bytes.toString())).toMatchObject({ code: "range_not_satisfiable" });
  });

  it("is a 404 for someone else's upload, a transcript not of an upload, and without credentials a 401", async () => {
    const owner = await createCaller(ctx.db);
    const other = await createCaller(ctx.db);
    const transcript = await uploadedTranscript(owner);
    expect((await media(transcript.id, other.headers)).status).toBe(404);
    expect((await media(transcript.id, {})).status).toBe(401);

    const youtube = await seedTranscript(ctx.db, owner.userId);
    const notUpload = await media(youtube.id, owner.headers);
    expect(notUpload.status).toBe(404);
    expect(JSON.parse(notUpload.bytes.toString())).toMatchObject({ code: "not_found" });
  });
});
