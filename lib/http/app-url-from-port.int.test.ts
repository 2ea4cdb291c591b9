/**
 * `PORT=3490 npm start` without APP_URL: the links the server hands out (signed upload URLs,
 * which the CLI PUTs to; the API reference's server, which /docs "Try it out" calls; the dashboard's
 * curl, built from the same setting) name the port the server listens on, not :3000.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";

const dataDir = mkdtempSync(join(tmpdir(), "verbatim-port-"));
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;

beforeAll(async () => {
  delete process.env.APP_URL;
  delete process.env.S3_BUCKET;
  process.env.PORT = "3490";
  process.env.DATA_DIR = dataDir;
  ctx = await useTestDatabase();
});

afterAll(async () => {
  await ctx?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

it("derives APP_URL from PORT: upload links and the API reference's server are on :3490", async () => {
  const { env } = await import("@/lib/env");
  expect(env().APP_URL).toBe("http://localhost:3490");

  const caller = await createCaller(ctx.db);
  const sign = (await import("@/app/v1/uploads/sign/route")).POST;
  const signed = await callRoute(sign, "/v1/uploads/sign", {
    method: "POST",
    headers: caller.headers,
    body: { filename: "lecture.mp3", content_type: "audio/mpeg" },
  });
  expect(signed.status).toBe(200);
  expect((signed.json as { upload_url: string }).upload_url).toMatch(/^http:\/\/localhost:3490\/uploads\//);

  const openapi = (await import("@/app/openapi.json/route")).GET;
  const document = await callRoute(openapi as never, "/openapi.json");
  expect((document.json as { servers: { url: string }[] }).servers).toEqual([{ url: "http://localhost:3490" }]);
});
