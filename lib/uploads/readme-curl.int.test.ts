import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { makeWav } from "@/test/uploads";

// The curl sequence for a local file that README.md points to (docs/api.md: sign, PUT the bytes, transcribe, ask
// for the job), run word for word by bash and curl against the app's real route handlers over HTTP: only the
// first line's file and type are put in, and BASE, which the README sets earlier. No job runner runs here, so the job is seen queued; recognising it is the job tests' part.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let served: ServedRoutes;
let dir: string;

const root = path.resolve(import.meta.dirname, "../..");

/** The shell block that uses /v1/uploads/sign, in the API guide the README links to for it. */
function readmeUploadScript(): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  expect(readme).toContain("(docs/api.md#a-local-file-with-curl)");
  const guide = readFileSync(path.join(root, "docs/api.md"), "utf8");
  expect(guide).toMatch(/^## A local file with curl$/m);
  const blocks = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.includes("/v1/uploads/sign"));
  if (!block) throw new Error("docs/api.md has no shell block that signs an upload");
  return block;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "verbatim-readme-"));
  served = await serveRoutes({
    "/v1/uploads/sign": { POST: lazy(() => import("@/app/v1/uploads/sign/route"), "POST") },
    "/uploads/[...path]": { PUT: lazy(() => import("@/app/uploads/[...path]/route"), "PUT") },
    "/v1/transcript": { POST: lazy(() => import("@/app/v1/transcript/route"), "POST") },
    "/v1/jobs/[job_id]": { GET: lazy(() => import("@/app/v1/jobs/[job_id]/route"), "GET") },
  });
  Object.assign(process.env, {
    APP_URL: served.url,
    DATA_DIR: path.join(dir, "data"),
    // Speech recognition must be configured for a job to be accepted; nothing runs it here.
    ASR_OPENAI_BASE_URL: "http://127.0.0.1:9",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  delete process.env.S3_BUCKET;
  ctx = await useTestDatabase();
});

afterAll(async () => {
  await served?.close();
  await ctx?.teardown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("README: transcribing a local file with curl", () => {
  it("signs, uploads the raw bytes, starts a job for the upload and reads it back", async () => {
    const { userId, headers } = await createCaller(ctx.db);
    const file = path.join(dir, "talk.wav");
    writeFileSync(file, makeWav(1));
    const script = readmeUploadScript();
    const first = script.split("\n")[0];
    expect(first).toMatch(/^FILE=\S+ TYPE=\S+/);
    const runnable = script.replace(first, `BASE=${served.url} FILE=${file} TYPE=audio/wav`);

    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", runnable], {
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        VERBATIM_API_KEY: headers.authorization.slice(7),
      },
    });
    const [uploaded, ...job] = stdout.split("\n");
    expect(uploaded).toMatch(/^uploaded: HTTP 20[01]$/);
    expect(JSON.parse(job.join("\n"))).toEqual({ status: "queued", error: null, text: null });
    // Done, the transcript's text is there only when the poll asks for it (a job's default format is JSON, whose
    // content is null): the first README left it out, and a newcomer's finished job showed "text": null.
    expect(script).toMatch(/\/v1\/jobs\/\$JOB\?format=text"/);

    const upload = await ctx.db.upload.findFirstOrThrow({ where: { userId } });
    expect(upload).toMatchObject({ contentType: "audio/wav", filename: "talk.wav", completedAt: expect.any(Date) });
    expect(await ctx.db.job.count({ where: { userId } })).toBe(1);
  });
});
