import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { makeWav } from "@/test/uploads";
import { recordFault } from "./report";
import { limitDiskSpace } from "./small-disk";

// Disk full for uploads: DATA_DIR/uploads holds 256 KiB (test/faults/small-disk.ts: the writes that do
// not fit fail with ENOSPC, as on a full filesystem, without mounting one, which would need root). An
// upload that does not fit answers 507 insufficient_storage with Retry-After, leaves no partial file and
// no claimed row; once space is freed, uploads succeed again.

const DISK_BYTES = 256 * 1024;
const root = mkdtempSync(path.join(os.tmpdir(), "verbatim-faults-disk-"));
const uploads = path.join(root, "uploads");

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let signRoute: typeof import("@/app/v1/uploads/sign/route").POST;
let putRoute: typeof import("@/app/uploads/[...path]/route").PUT;
let unlimit: (() => void) | undefined;

beforeAll(async () => {
  mkdirSync(uploads);
  unlimit = await limitDiskSpace(uploads, DISK_BYTES);
  Object.assign(process.env, { DATA_DIR: root });
  delete process.env.S3_BUCKET;
  ctx = await useTestDatabase();
  signRoute = (await import("@/app/v1/uploads/sign/route")).POST;
  putRoute = (await import("@/app/uploads/[...path]/route")).PUT;
});

afterAll(async () => {
  await ctx?.teardown();
  unlimit?.();
  rmSync(root, { recursive: true, force: true });
});

async function upload(caller: { headers: Record<string, string> }, body: Buffer) {
  const signed = await callRoute(signRoute, "/v1/uploads/sign", {
    method: "POST",
    headers: caller.headers,
    body: { filename: "talk.wav", content_type: "audio/wav" },
  });
  const { upload_url: uploadUrl, object_path: objectPath } = signed.json as { upload_url: string; object_path: string };
  const url = new URL(uploadUrl);
  const segments = url.pathname
    .replace(/^\/uploads\//, "")
    .split("/")
    .map(decodeURIComponent);
  const request = new NextRequest(url, {
    method: "PUT",
    headers: { "content-type": "audio/wav", "content-length": String(body.length) },
    body,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await putRoute(request, { params: Promise.resolve({ path: segments }) });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
    objectPath,
  };
}

/** Every file under the uploads folder, with its size. */
function files(dir = uploads): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [`${path.relative(uploads, full)} (${statSync(full).size} B)`];
  });
}

describe("the disk is full", () => {
  it("an upload that does not fit: 507 in the API's shape, no partial file, no claimed row; then uploads work again", async () => {
    const caller = await createCaller(ctx.db);
    const small = makeWav(1); // ~16 KB
    const kept = await upload(caller, small);
    expect(kept.status).toBe(200);

    const tooBig = makeWav(30); // ~480 KB: more than the whole disk
    const refused = await upload(caller, tooBig);
    expect(refused.status).toBe(507);
    expect(refused.json).toEqual({ detail: expect.stringMatching(/no room/), code: "insufficient_storage" });
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect(files()).toEqual([
      expect.stringMatching(new RegExp(`^uploads/${caller.userId}/.+/talk\\.wav \\(${small.length} B\\)$`)),
    ]);
    const row = await ctx.db.upload.findUniqueOrThrow({ where: { objectPath: refused.objectPath } });
    expect(row.completedAt).toBeNull();

    // Space comes back (the operator cleans up, or retention deletes old uploads): the next upload works.
    const freed = Date.now();
    rmSync(path.join(uploads, "uploads", caller.userId), { recursive: true, force: true });
    const again = await upload(caller, makeWav(5));
    expect(again.status).toBe(200);
    recordFault({
      scenario: "disk full",
      injected: `${Math.round(tooBig.length / 1024)} KiB upload into a ${DISK_BYTES / 1024} KiB disk`,
      lost: files().filter((f) => f.includes(".partial")).length,
      recoverySeconds: (Date.now() - freed) / 1000,
      note: "507 insufficient_storage + Retry-After; partial file removed",
    });
  });
});
