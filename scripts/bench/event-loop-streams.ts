// The event-loop suite's (event-loop.ts) routes that are not in the endpoint table: the embedded store's
// signed upload target (PUT /uploads/…, a streamed body up to UPLOAD_MAX_BYTES) and Auth.js's sign-in and
// sign-out form posts (/api/auth/…), each at its body bound and, for Auth.js, past it.
import { NextRequest } from "next/server";
import { MiB } from "./event-loop-bodies";
import { measureRequests, type Measured } from "./event-loop-hold";

const ORIGIN = "http://localhost:3000";

const CHUNK = 64 * 1024;

/** A body of `bytes` in 64 KiB pieces, as a socket delivers them: an MP3's first bytes, then zeros. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const piece = new Uint8Array(Math.min(CHUNK, bytes - sent));
      if (sent === 0) piece.set([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]);
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
}

/** `body` (encoded before the clock starts) in 64 KiB pieces, without a Content-Length (chunked). */
function inPieces(body: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.subarray(at, (at += CHUNK)));
    },
  });
}

/** PUT /uploads/{path} at UPLOAD_MAX_BYTES (the bench sets it: each chunk is written as it comes). */
export async function benchUploadPut(userId: string, filter?: string): Promise<Measured[]> {
  const label = "PUT /uploads/{path} (signed)";
  if (filter && !label.includes(filter)) return [];
  const { env } = await import("../../lib/env");
  const { signUpload } = await import("../../lib/uploads/sign-upload");
  const { PUT } = await import("../../app/uploads/[...path]/route");
  const bound = env().UPLOAD_MAX_BYTES;
  const size = `${Math.round(bound / MiB)} MiB`;
  const bodies = [
    { name: `${size} file (UPLOAD_MAX_BYTES), 64 KiB chunks`, bytes: bound },
    { name: `${size} and one byte (413)`, bytes: bound + 1 },
  ];
  const requests = [];
  for (const body of bodies) {
    const signed = await signUpload(userId, { filename: "bench.mp3", content_type: "audio/mpeg" });
    const url = new URL(signed.upload_url);
    requests.push({
      name: body.name,
      params: { path: url.pathname.replace(/^\/uploads\//, "").split("/") } as never,
      build: () =>
        new NextRequest(url, {
          method: "PUT",
          headers: { "content-type": "audio/mpeg" },
          body: streamed(body.bytes),
          duplex: "half",
        } as ConstructorParameters<typeof NextRequest>[1]),
    });
  }
  // Once each: a signed URL takes one upload.
  return [await measureRequests(label, PUT as never, requests, 1)];
}

/** Auth.js's form posts, streamed: 16 MiB of junk parameters, one long value, a JSON object of junk keys. */
export async function benchAuthPosts(filter?: string): Promise<Measured[]> {
  const label = "POST /api/auth/* (sign-in, sign-out forms)";
  if (filter && !label.includes(filter)) return [];
  const { POST } = await import("../../app/api/auth/[...nextauth]/route");
  const size = 16 * MiB;
  const junk = Array.from({ length: size / 12 }, (_, i) => `k${i}=`).join("&");
  const jsonKeys = `{${Array.from({ length: size / 14 }, (_, i) => `"k${i}":0`).join(",")}}`;
  const form = "application/x-www-form-urlencoded";
  const bodies: Record<string, { type: string; bytes: Uint8Array }> = {
    "16 MiB of distinct junk parameters": { type: form, bytes: Buffer.from(junk) },
    "16 MiB email value": { type: form, bytes: Buffer.from(`email=${"a".repeat(size)}`) },
    "16 MiB JSON object of junk keys": { type: "application/json", bytes: Buffer.from(jsonKeys) },
  };
  const paths = ["/api/auth/callback/dev-login", "/api/auth/signin/nodemailer", "/api/auth/signout"];
  const requests = paths.flatMap((path) =>
    Object.entries(bodies).map(([name, body]) => ({
      name: `${path}: ${name}`,
      build: () =>
        new NextRequest(new URL(path, ORIGIN), {
          method: "POST",
          headers: { "content-type": body.type, origin: ORIGIN },
          body: inPieces(body.bytes),
          duplex: "half",
        } as ConstructorParameters<typeof NextRequest>[1]),
    })),
  );
  return [await measureRequests(label, POST as never, requests)];
}
