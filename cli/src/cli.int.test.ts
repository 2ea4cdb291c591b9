import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { seedTranscript, videoIds } from "@/test/publishing";
import { ANSI, buildCli, CLI_PATH, runCli, runProgram, startCli, type CliRun } from "@/test/cli";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { apiKeyStateSchema, meSchema } from "@/lib/auth/schemas";
import { importBatchSchema, importItemSchema } from "@/lib/imports/schemas";
import { batchSchema } from "@/lib/batches/schemas";
import { alertListSchema, alertMatchListSchema, alertSchema } from "@/lib/alerts/schemas";
import { followDetailSchema, followSchema } from "@/lib/follows/schemas";
import { resolveResponseSchema } from "@/lib/podcasts/schemas";
import { searchResponseSchema } from "@/lib/search/schemas";
import { publishResponseSchema } from "@/lib/publishing/schemas";
import {
  jobResponseSchema,
  languagesResponseSchema,
  transcriptionListSchema,
  transcriptSchema,
} from "@/lib/transcripts/schemas";
import { subscriptionResponseSchema } from "@/lib/usage/schemas";
import { webhookDeliveryListSchema, webhookDeliverySchema, webhookEndpointListSchema } from "@/lib/webhooks/schemas";

// The built CLI as a child process against the app's real route handlers (served over HTTP by
// test/serve-routes.ts, real PostgreSQL, the YouTube and podcast fakes): every command's --json output
// is one JSON document that matches its schema, nothing it prints is coloured (its streams are pipes),
// and each kind of failure has its exit code. No job runner runs here, so jobs stay queued unless a test moves one
// on itself (waiting for a job, Ctrl-C while waiting); uploads and a job that really runs are covered end to end in
// e2e/cli.spec.ts.

// A guard against a hang, not a timing: one test runs a dozen commands, each a child process, and beside the other
// suites on a slow two-core machine it took two of the suite's three minutes.
vi.setConfig({ testTimeout: 10 * 60_000 });

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let served: ServedRoutes;
let youtube: FakeYoutube;
let podcasts: FakePodcastServer;
let configHome: string;

const video = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const nextVideo = videoIds("cx");

beforeAll(async () => {
  buildCli();
  served = await serveRoutes({
    "/v1/me": { GET: lazy(() => import("@/app/v1/me/route"), "GET") },
    "/v1/me/subscription": { GET: lazy(() => import("@/app/v1/me/subscription/route"), "GET") },
    "/v1/me/api-key": { GET: lazy(() => import("@/app/v1/me/api-key/route"), "GET") },
    "/v1/me/api-key/regenerate": { POST: lazy(() => import("@/app/v1/me/api-key/regenerate/route"), "POST") },
    "/v1/me/transcriptions": { GET: lazy(() => import("@/app/v1/me/transcriptions/route"), "GET") },
    "/v1/me/search": { GET: lazy(() => import("@/app/v1/me/search/route"), "GET") },
    "/v1/exports": { POST: lazy(() => import("@/app/v1/exports/route"), "POST") },
    "/v1/device/code": { POST: lazy(() => import("@/app/v1/device/code/route"), "POST") },
    "/v1/device/token": { POST: lazy(() => import("@/app/v1/device/token/route"), "POST") },
    "/v1/device/approve": { POST: lazy(() => import("@/app/v1/device/approve/route"), "POST") },
    "/oauth/token": { POST: lazy(() => import("@/app/oauth/token/route"), "POST") },
    "/oauth/revoke": { POST: lazy(() => import("@/app/oauth/revoke/route"), "POST") },
    "/v1/transcript": { POST: lazy(() => import("@/app/v1/transcript/route"), "POST") },
    "/v1/jobs/[job_id]": { GET: lazy(() => import("@/app/v1/jobs/[job_id]/route"), "GET") },
    "/v1/transcripts/[id]": {
      GET: lazy(() => import("@/app/v1/transcripts/[id]/route"), "GET"),
      PATCH: lazy(() => import("@/app/v1/transcripts/[id]/route"), "PATCH"),
    },
    "/v1/transcripts/[id]/download": { GET: lazy(() => import("@/app/v1/transcripts/[id]/download/route"), "GET") },
    "/v1/transcripts/[id]/edits": { DELETE: lazy(() => import("@/app/v1/transcripts/[id]/edits/route"), "DELETE") },
    "/v1/languages": { GET: lazy(() => import("@/app/v1/languages/route"), "GET") },
    "/v1/publish": { POST: lazy(() => import("@/app/v1/publish/route"), "POST") },
    "/v1/publish/[slug]": { DELETE: lazy(() => import("@/app/v1/publish/[slug]/route"), "DELETE") },
    "/v1/podcast/resolve": { POST: lazy(() => import("@/app/v1/podcast/resolve/route"), "POST") },
    "/v1/import": { POST: lazy(() => import("@/app/v1/import/route"), "POST") },
    "/v1/batches": { POST: lazy(() => import("@/app/v1/batches/route"), "POST") },
    "/v1/import/[batch_id]": { GET: lazy(() => import("@/app/v1/import/[batch_id]/route"), "GET") },
    "/v1/import/[batch_id]/items": { GET: lazy(() => import("@/app/v1/import/[batch_id]/items/route"), "GET") },
    "/v1/import/[batch_id]/items/retry": {
      POST: lazy(() => import("@/app/v1/import/[batch_id]/items/retry/route"), "POST"),
    },
    "/v1/follows": {
      GET: lazy(() => import("@/app/v1/follows/route"), "GET"),
      POST: lazy(() => import("@/app/v1/follows/route"), "POST"),
    },
    "/v1/follows/[id]": {
      GET: lazy(() => import("@/app/v1/follows/[id]/route"), "GET"),
      PATCH: lazy(() => import("@/app/v1/follows/[id]/route"), "PATCH"),
      DELETE: lazy(() => import("@/app/v1/follows/[id]/route"), "DELETE"),
    },
    "/v1/alerts": {
      GET: lazy(() => import("@/app/v1/alerts/route"), "GET"),
      POST: lazy(() => import("@/app/v1/alerts/route"), "POST"),
    },
    "/v1/alerts/[id]": {
      GET: lazy(() => import("@/app/v1/alerts/[id]/route"), "GET"),
      PATCH: lazy(() => import("@/app/v1/alerts/[id]/route"), "PATCH"),
      DELETE: lazy(() => import("@/app/v1/alerts/[id]/route"), "DELETE"),
    },
    "/v1/alerts/[id]/matches": { GET: lazy(() => import("@/app/v1/alerts/[id]/matches/route"), "GET") },
    "/v1/follows/[id]/check": { POST: lazy(() => import("@/app/v1/follows/[id]/check/route"), "POST") },
    "/v1/me/webhooks": {
      GET: lazy(() => import("@/app/v1/me/webhooks/route"), "GET"),
      POST: lazy(() => import("@/app/v1/me/webhooks/route"), "POST"),
    },
    "/v1/me/webhooks/[id]/test": { POST: lazy(() => import("@/app/v1/me/webhooks/[id]/test/route"), "POST") },
    "/v1/me/webhooks/[id]/deliveries": { GET: lazy(() => import("@/app/v1/me/webhooks/[id]/deliveries/route"), "GET") },
  });
  youtube = await startFakeYoutube();
  podcasts = await startFakePodcastServer();
  configHome = await mkdtemp(path.join(os.tmpdir(), "verbatim-cli-int-"));
  // Settings are read once, at the first use of the app's modules below.
  Object.assign(process.env, {
    APP_URL: served.url,
    YOUTUBE_BASE_URL: youtube.url,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    // Speech recognition must be configured for a job to be accepted; nothing runs it here.
    ASR_OPENAI_BASE_URL: "http://127.0.0.1:9",
    DATA_DIR: path.join(configHome, "data"),
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
});

afterAll(async () => {
  await served?.close();
  await youtube?.close();
  await podcasts?.close();
  await ctx?.teardown();
  if (configHome) await rm(configHome, { recursive: true, force: true });
});

/** A user's environment: its own config folder and, unless null, its API key. */
async function userEnv(apiKey: string | null) {
  const home = await mkdtemp(path.join(configHome, "user-"));
  return { XDG_CONFIG_HOME: home, VERBATIM_BASE_URL: served.url, ...(apiKey ? { VERBATIM_API_KEY: apiKey } : {}) };
}

async function apiKeyUser() {
  const caller = await createCaller(ctx.db);
  const key = caller.headers.authorization.replace("Bearer ", "");
  return { ...caller, key, env: await userEnv(key) };
}

/** Runs the CLI; checks the streams carry no ANSI codes and stdout is one JSON document matching `schema`. */
async function json<S extends z.ZodType>(
  schema: S,
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<z.infer<S>> {
  const result = await runCli([...args, "--json"], env, input);
  expectPlain(result);
  expect(result.code, result.stderr).toBe(0);
  return schema.parse(JSON.parse(result.stdout));
}

function expectPlain(result: CliRun) {
  expect(result.stdout).not.toMatch(ANSI);
  expect(result.stderr).not.toMatch(ANSI);
}

/** A failed run: its exit code, nothing on stdout, one line on stderr. */
async function fails(args: string[], env: Record<string, string>, exitCode: number, message: RegExp) {
  const result = await runCli(args, env);
  expectPlain(result);
  expect(result.code, result.stderr).toBe(exitCode);
  expect(result.stdout).toBe("");
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
  return result;
}

const whoamiSchema = z.strictObject({
  base_url: z.string(),
  credential: z.enum(["login", "api_key"]),
  user: meSchema,
  usage: subscriptionResponseSchema,
});
const getManySchema = z.array(
  z.union([
    z.strictObject({ input: z.string(), transcript: transcriptSchema }),
    z.strictObject({
      input: z.string(),
      error: z.strictObject({ message: z.string(), code: z.string().nullable(), exit_code: z.number().int() }),
    }),
  ]),
);

describe("export", () => {
  it("writes notes into a folder under stable names; a re-run updates them in place; 5 for an id not in the history", async () => {
    const user = await apiKeyUser();
    const titles = ["Grit: the power of passion", "CON", "Why? Because: reasons..."];
    const talks = [];
    for (const title of titles) talks.push(await seedTranscript(ctx.db, user.userId, { videoId: nextVideo(), title }));
    const vault = await mkdtemp(path.join(configHome, "vault-"));
    const outcomeSchema = z.strictObject({
      out: z.string(),
      count: z.number(),
      added: z.array(z.string()),
      updated: z.array(z.string()),
      renamed: z.array(z.strictObject({ from: z.string(), to: z.string() })),
      unchanged: z.array(z.string()),
    });
    const first = await json(outcomeSchema, ["export", "--format", "md", "--out", vault], user.env);
    expect(first.count).toBe(3);
    const names = (await readdir(vault)).sort();
    expect(names).toEqual(
      [
        expect.stringMatching(/^Grit the power of passion \([a-z2-7]{10}\)\.md$/),
        expect.stringMatching(/^Why Because reasons \([a-z2-7]{10}\)\.md$/),
        expect.stringMatching(/^_CON \([a-z2-7]{10}\)\.md$/),
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    expect(first.added.sort()).toEqual(names);
    const note = await readFile(path.join(vault, names[0]!), "utf8");
    expect(note).toMatch(/^---\ntitle: /);
    expect(note).toContain(`verbatim_id: ${talks[0]!.id}`);

    // Again: nothing changes; then a title changes and its note is renamed in place, not written twice.
    const again = await json(outcomeSchema, ["export", "--out", vault], user.env);
    expect(again).toMatchObject({ added: [], updated: [], renamed: [] });
    expect(again.unchanged).toHaveLength(3);
    await ctx.db.transcript.update({ where: { id: talks[0]!.id }, data: { title: "Grit, retitled" } });
    const renamed = await json(outcomeSchema, ["export", "--out", vault, "--id", talks[0]!.id], user.env);
    expect(renamed.renamed).toEqual([{ from: names[0], to: expect.stringMatching(/^Grit, retitled \(/) }]);
    expect(await readdir(vault)).toHaveLength(3);

    const human = await runCli(["export", "--out", vault], user.env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(/Done: 0 new, 0 updated, 3 unchanged\./);

    await fails(
      ["export", "--out", vault, "--id", "cm9nosuchtranscript00000"],
      user.env,
      5,
      /not transcripts in your history|No transcript/,
    );
    await fails(["export", "--out", vault, "--id", "x", "--search", "grit"], user.env, 2, /Choose one/);
  });
});

describe("--json on every command", () => {
  it("whoami, languages, get (one, several from stdin), history, publish, unpublish, job, podcast resolve, import, key, open", async () => {
    const user = await apiKeyUser();
    const me = await json(whoamiSchema, ["whoami"], user.env);
    expect(me).toMatchObject({
      base_url: served.url,
      credential: "api_key",
      user: { id: user.userId, via: "api_key" },
      usage: { tier: "free", used_seconds: 0 },
    });

    const langs = await json(languagesResponseSchema, ["languages", video(FAKE_IDS.captioned)], user.env);
    expect(langs.languages.map((l) => l.code)).toContain("en");

    // --json carries the timed segments whatever the format (the help's `jq '.segments[0]'` example), and the text too.
    const text = await json(transcriptSchema, ["get", video(FAKE_IDS.captioned)], user.env);
    expect(text).toMatchObject({ video_id: FAKE_IDS.captioned, format: "text", source: "captions" });
    expect(text.content).toContain("bread rises");
    expect(text.segments![0]).toMatchObject({
      start: expect.any(Number),
      end: expect.any(Number),
      text: expect.any(String),
    });
    const segments = await json(
      transcriptSchema,
      ["get", video(FAKE_IDS.captioned), "--format", "json", "--lang", "de"],
      user.env,
    );
    expect(segments.segments!.length).toBeGreaterThan(0);

    // Several inputs from stdin: an array in input order; the unavailable one fails alone, with exit 5.
    const many = await runCli(
      ["get", "-", "--json", "--format", "srt"],
      user.env,
      `${video(FAKE_IDS.captioned)}\n# a comment\n\n${video(FAKE_IDS.unavailable)}\n`,
    );
    expectPlain(many);
    expect(many.code).toBe(5);
    const results = getManySchema.parse(JSON.parse(many.stdout));
    expect(results.map((r) => r.input)).toEqual([video(FAKE_IDS.captioned), video(FAKE_IDS.unavailable)]);
    expect(results[0]).toMatchObject({ transcript: { format: "srt", content: expect.stringMatching(/^1\n00:00:/) } });
    expect((results[0] as { transcript: { segments: unknown[] } }).transcript.segments.length).toBeGreaterThan(0);
    expect(results[1]).toMatchObject({ error: { code: "video_unavailable", exit_code: 5 } });

    const history = await json(
      transcriptionListSchema,
      ["history", "--platform", "youtube", "--state", "done"],
      user.env,
    );
    expect(history.transcriptions.map((t) => `${t.video_id}:${t.lang}`).sort()).toEqual([
      `${FAKE_IDS.captioned}:de`,
      `${FAKE_IDS.captioned}:en`,
    ]);

    // The English track says "Today we're going to talk about why bread rises" at 5.685 s.
    const found = await json(searchResponseSchema, ["search", "bread rising", "--lang", "en"], user.env);
    expect(found.results[0]).toMatchObject({
      start: 5.685,
      lang: "en",
      links: { source: `${video(FAKE_IDS.captioned)}&t=5s` },
    });
    const byWords = await json(searchResponseSchema, ["search", "bread rising", "--mode", "keyword"], user.env);
    expect(byWords.results[0]).toMatchObject({ start: 5.685 });

    const published = await json(publishResponseSchema, ["publish", video(FAKE_IDS.captioned)], user.env);
    const unpublished = await json(
      z.strictObject({ slug: z.string(), published: z.literal(false) }),
      ["unpublish", published.slug],
      user.env,
    );
    expect(unpublished.slug).toBe(published.slug);

    const accepted = await fetch(`${served.url}/v1/transcript`, {
      method: "POST",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: video(FAKE_IDS.noCaptions) }),
    });
    expect(accepted.status).toBe(202);
    const { job_id } = (await accepted.json()) as { job_id: string };
    const job = await json(jobResponseSchema, ["job", job_id, "--no-wait"], user.env);
    expect(job).toMatchObject({ job_id, status: "queued", transcript: null });

    const feed = `${podcasts.origin}/generated/3.xml`;
    const show = await json(resolveResponseSchema, ["podcast", "resolve", feed], user.env);
    expect(show.episodes).toHaveLength(3);
    const paged = await json(
      resolveResponseSchema,
      ["podcast", "resolve", feed, "--limit", "2", "--offset", "1"],
      user.env,
    );
    expect(paged).toMatchObject({ total_episodes: 3, next_offset: null });
    expect(paged.episodes).toEqual(show.episodes!.slice(1, 3));
    const batch = await json(importBatchSchema, ["import", feed, "--no-wait"], user.env);
    expect(batch.source_url).toBe(feed);

    const key = await json(apiKeyStateSchema, ["key", "show"], user.env);
    expect(key).toMatchObject({ has_key: true, key: null });
    expect(user.key.startsWith(key.key_prefix!)).toBe(true);

    const opened = await json(
      z.strictObject({ url: z.string(), opened: z.boolean() }),
      ["open", "history", "--no-browser"],
      user.env,
    );
    expect(opened).toEqual({ url: `${served.url}/dashboard/history`, opened: false });

    // Regenerating needs --yes without a terminal; afterwards the old key is refused (exit 3), the new one works.
    await fails(["key", "regenerate"], user.env, 2, /--yes/);
    const regenerated = await json(apiKeyStateSchema, ["key", "regenerate", "--yes"], user.env);
    expect(regenerated.key).toMatch(/^vbt_/);
    await fails(["whoami"], user.env, 3, /VERBATIM_API_KEY/);
    await json(whoamiSchema, ["whoami"], { ...user.env, VERBATIM_API_KEY: regenerated.key! });
  }, 180_000); // some twenty runs of the CLI, each a Node start-up: over a minute on a loaded 2-core machine

  it("retry-import queues every failed item of a batch again (or the guids given), and leaves the rest", async () => {
    const user = await apiKeyUser();
    const batch = await ctx.db.importBatch.create({
      data: { userId: user.userId, sourceUrl: `${podcasts.origin}/generated/3.xml`, status: "partial", total: 3 },
    });
    const item = (guid: string, position: number, status: string) => ({
      batchId: batch.id,
      guid,
      title: `Episode ${guid}`,
      audioUrl: `${podcasts.origin}/ex/retry-${guid}.mp3`,
      position,
      status,
      note: status === "failed" ? "It failed." : null,
    });
    await ctx.db.importItem.createMany({
      data: [item("a", 0, "failed"), item("b", 1, "done"), item("c", 2, "failed")],
    });
    const one = await json(
      z.object({ batch_id: z.string(), items: z.array(importItemSchema) }),
      ["retry-import", batch.id, "c"],
      user.env,
    );
    expect(one.items.map((i) => [i.guid, i.status])).toEqual([["c", "queued"]]);
    const all = await json(
      z.object({ batch_id: z.string(), items: z.array(importItemSchema) }),
      ["retry-import", batch.id],
      user.env,
    );
    expect(all.items.map((i) => [i.guid, i.status, i.note])).toEqual([["a", "queued", null]]);
    const rows = await ctx.db.importItem.findMany({ where: { batchId: batch.id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.status)).toEqual(["queued", "done", "queued"]);
    await fails(["retry-import", "no-such-batch"], user.env, 5, /No import batch/);
  });

  it("batch sends a CSV file's links as one batch: duplicates and bad lines skipped with their line; 2 for no file", async () => {
    const user = await apiKeyUser();
    const folder = await mkdtemp(path.join(os.tmpdir(), "verbatim-cli-batch-"));
    const file = path.join(folder, "links.csv");
    const links = [nextVideo(), nextVideo()].map(video);
    await writeFile(
      file,
      ["url,title", `${links[0]},One`, `${links[1]},Two`, `${links[0]},Again`, "nope,Bad"].join("\n"),
    );
    const created = await json(batchSchema, ["batch", file, "--no-wait"], user.env);
    expect(created).toMatchObject({ status: "queued", total: 4, queued: 2, skipped: 2 });
    expect(created.items.map((i) => [i.line, i.status])).toEqual([
      [2, "queued"],
      [3, "queued"],
      [4, "skipped"],
      [5, "skipped"],
    ]);
    await fails(["batch", path.join(folder, "missing.txt")], user.env, 2, /Cannot read/);
    await rm(folder, { recursive: true, force: true });
  });

  it("human output: the transcript's text on stdout, a table for history, and no colour", async () => {
    const user = await apiKeyUser();
    const text = await runCli(["get", video(FAKE_IDS.captioned)], user.env);
    expectPlain(text);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split("\n").length).toBeGreaterThan(3);
    expect(text.stderr).toBe("");
    const history = await runCli(["history"], user.env);
    expectPlain(history);
    expect(history.stdout.split("\n")[0]).toMatch(/^CREATED\s+PLATFORM\s+LANG\s+LENGTH\s+STATUS\s+TITLE$/);
    // The title, not the id; the length as people say it.
    expect(history.stdout).toContain("How Bread Rises");
    expect(history.stdout).not.toContain(FAKE_IDS.captioned);
    expect(history.stdout.split("\n")[1]).toMatch(/\s\d+ (h|min|s)( \d+ (min|s))?\s+done\s/);
    // A failure is listed with its reason (the API's sentence and code) in a last column.
    await runCli(["get", video(FAKE_IDS.unavailable)], user.env);
    const failed = await runCli(["history", "--state", "error"], user.env);
    expectPlain(failed);
    expect(failed.code, failed.stderr).toBe(0);
    const [failedHeader, failedRow] = failed.stdout.split("\n");
    expect(failedHeader).toMatch(/^CREATED\s+PLATFORM\s+LANG\s+LENGTH\s+STATUS\s+TITLE\s+REASON$/);
    expect(failedRow).toMatch(
      new RegExp(`\\serror\\s+${FAKE_IDS.unavailable}\\s+.*unavailable.*\\(video_unavailable\\)$`, "i"),
    );
    const found = await runCli(["search", "bread rises"], user.env);
    expectPlain(found);
    expect(found.code, found.stderr).toBe(0);
    const [header, first] = found.stdout.split("\n");
    expect(header).toMatch(/^TIME\s+TITLE\s+SNIPPET$/);
    expect(first).toMatch(/^0:05\s+.+\s+.*\*bread\* \*rises\*/);
    const nothing = await runCli(["search", "zeppelin"], user.env);
    expect(nothing).toMatchObject({ code: 0, stdout: "" });
    expect(nothing.stderr).toContain("Nothing in your transcripts matches");

    const file = path.join(user.env.XDG_CONFIG_HOME, "bread.vtt");
    const written = await runCli(["get", video(FAKE_IDS.captioned), "-f", "vtt", "-o", file], user.env);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe("");
    expect(await readFile(file, "utf8")).toMatch(/^WEBVTT/);
  });
});

describe("edit", () => {
  it("--from a corrected SRT, --replace … --with, --restore; 5 for a transcript not in the history, 2 for bad usage", async () => {
    const user = await apiKeyUser();
    const got = await json(transcriptSchema, ["get", video(FAKE_IDS.captioned)], user.env);
    const srt = await (
      await fetch(`${served.url}/v1/transcripts/${got.id}/download?format=srt`, { headers: user.headers })
    ).text();
    expect(srt).toContain("bread");
    const file = path.join(configHome, "fixed.srt");
    await writeFile(file, srt.replaceAll("bread", "sourdough"));
    const fixed = await json(transcriptSchema, ["edit", got.id, "--from", file], user.env);
    expect(fixed.edited).toBe(true);
    expect(fixed.segments!.map((s) => [s.start, s.end])).toEqual(got.segments!.map((s) => [s.start, s.end]));
    expect(fixed.segments!.some((s) => s.text.includes("sourdough"))).toBe(true);
    const replaced = await json(
      z.object({ replaced: z.number(), transcript: transcriptSchema }),
      ["edit", got.id, "--replace", "sourdough", "--with", "rye"],
      user.env,
    );
    expect(replaced.replaced).toBeGreaterThan(0);
    const restored = await json(transcriptSchema, ["edit", got.id, "--restore"], user.env);
    expect(restored.edited).toBeUndefined();
    expect(restored.segments).toEqual(got.segments);
    await fails(["edit", "no-such-transcript", "--restore"], user.env, 5, /No transcript/);
    await fails(["edit", got.id], user.env, 2, /Give one of/);
    await fails(["edit", got.id, "--from", path.join(configHome, "fixed.txt")], user.env, 2, /--format srt or vtt/);
  });
});

describe("webhooks", () => {
  it("lists endpoints, sends a test event and shows it among the deliveries", async () => {
    const user = await apiKeyUser();
    const created = await fetch(`${served.url}/v1/me/webhooks`, {
      method: "POST",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://hooks.example.com/verbatim" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const list = await json(webhookEndpointListSchema, ["webhooks"], user.env);
    expect(list.endpoints).toMatchObject([{ id, url: "https://hooks.example.com/verbatim", enabled: true }]);
    const human = await runCli(["webhooks"], user.env);
    expect(human.stdout).toContain(
      `${id}  https://hooks.example.com/verbatim  transcript.completed,transcript.failed,import.completed,alert.matched,batch.completed  enabled`,
    );
    const queued = await json(webhookDeliverySchema, ["webhooks", "test", id], user.env);
    expect(queued).toMatchObject({ event_type: "webhook.test", status: "pending" });
    const deliveries = await json(webhookDeliveryListSchema, ["webhooks", "deliveries", id], user.env);
    expect(deliveries.deliveries.map((d) => d.webhook_id)).toEqual([queued.webhook_id]);
    await fails(["webhooks", "test", "no-such-endpoint"], user.env, 5, /No webhook endpoint/);
  });
});

describe("follow", () => {
  it("add, list, show, pause, resume, check and rm", async () => {
    const user = await apiKeyUser();
    const feed = `${podcasts.origin}/generated/3.xml?prefix=cli-follow`;
    const added = await json(followSchema, ["follow", "add", feed], user.env);
    expect(added).toMatchObject({ kind: "podcast", state: "active", items_seen: 3, title: "Generated show (3)" });
    const { id } = added;
    expect((await json(followSchema.array(), ["follow", "list"], user.env)).map((f) => f.id)).toEqual([id]);
    const human = await runCli(["follow", "list"], user.env);
    expectPlain(human);
    expect(human.stdout.split("\n")[0]).toMatch(/^ID\s+KIND\s+STATE\s+ITEMS\s+NEXT CHECK\s+TITLE$/);
    expect(human.stdout).toContain("Generated show (3)");
    const shown = await json(followDetailSchema, ["follow", "show", id], user.env);
    expect(shown.items.map((i) => i.status)).toEqual(["seen", "seen", "seen"]);
    expect(await json(followSchema, ["follow", "pause", id], user.env)).toMatchObject({ state: "paused" });
    await fails(["follow", "check", id], user.env, 1, /paused/);
    expect(await json(followSchema, ["follow", "resume", id], user.env)).toMatchObject({ state: "active" });
    expect((await runCli(["follow", "check", id], user.env)).stdout).toContain(`Checking Generated show (3) (${id})`);
    expect((await runCli(["follow", "rm", id], user.env)).code).toBe(0);
    await fails(["follow", "show", id], user.env, 5, /No follow/);
    await fails(["follow", "add", `${podcasts.origin}/hostile/page.html`], user.env, 2, /web page/);
  });
});

describe("alerts", () => {
  it("add, ls, show, pause and rm; a query that would match everything is a usage error", async () => {
    const user = await apiKeyUser();
    const added = await json(alertSchema, ["alerts", "add", '"harbour pilot" tugboat', "--email"], user.env);
    expect(added).toMatchObject({
      query: '"harbour pilot" tugboat',
      email: true,
      paused: false,
      scope: { kind: "library" },
    });
    const listed = await json(alertListSchema, ["alerts", "ls"], user.env);
    expect(listed.alerts.map((a) => a.id)).toEqual([added.id]);
    const human = await runCli(["alerts", "ls"], user.env);
    expectPlain(human);
    expect(human.stdout.split("\n")[0]).toMatch(/^ID\s+STATE\s+SCOPE\s+UNREAD\s+CREATED\s+QUERY$/);
    expect((await json(alertMatchListSchema, ["alerts", "show", added.id], user.env)).matches).toEqual([]);
    expect(await json(alertSchema, ["alerts", "pause", added.id], user.env)).toMatchObject({ paused: true });
    expect((await runCli(["alerts", "rm", added.id], user.env)).code).toBe(0);
    await fails(["alerts", "show", added.id], user.env, 5, /No alert/);
    await fails(["alerts", "add", "--", "-tugboat"], user.env, 2, /match everything/);
  });
});

describe("terminals", () => {
  /** Runs the CLI on a pseudo-terminal (util-linux `script`), as a person would. */
  function onTerminal(args: string[], env: Record<string, string>) {
    const command = [process.execPath, CLI_PATH, ...args].map((part) => `'${part}'`).join(" ");
    return runProgram("script", ["-qec", command, "/dev/null"], { ...env, TERM: "xterm-256color" });
  }

  it("colour on a terminal, none with NO_COLOR", async () => {
    const user = await apiKeyUser();
    const coloured = await onTerminal(["whoami"], user.env);
    expect(coloured.code, coloured.stdout).toBe(0);
    expect(coloured.stdout).toMatch(ANSI);
    const plain = await onTerminal(["whoami"], { ...user.env, NO_COLOR: "1" });
    expect(plain.code, plain.stdout).toBe(0);
    expect(plain.stdout).toMatch(/Logged in to/);
    expect(plain.stdout).not.toMatch(ANSI);
    const flagged = await onTerminal(["whoami", "--no-color"], user.env);
    expect(flagged.stdout).toMatch(/Logged in to/);
    expect(flagged.stdout).not.toMatch(ANSI);
  });

  it("colour into a pipe with FORCE_COLOR or --color (a CI log), none with FORCE_COLOR=0", async () => {
    const user = await apiKeyUser();
    const piped = await runProgram(process.execPath, [CLI_PATH, "whoami"], { ...user.env, FORCE_COLOR: "1" });
    expect(piped.code, piped.stdout).toBe(0);
    expect(piped.stdout).toMatch(ANSI);
    expect((await runProgram(process.execPath, [CLI_PATH, "--color", "whoami"], user.env)).stdout).toMatch(ANSI);
    const off = await onTerminal(["whoami"], { ...user.env, FORCE_COLOR: "0" });
    expect(off.stdout).toMatch(/Logged in to/);
    expect(off.stdout).not.toMatch(ANSI);
  });
});

describe("exit codes", () => {
  it("3 without credentials, 5 for an unknown slug or video, 4 when the allowance is used up, 2 for bad usage, 6 when the server is unreachable", async () => {
    await fails(["history"], await userEnv(null), 3, /Not logged in .* `verbatim login`/);
    const user = await apiKeyUser();
    await fails(["unpublish", "no-such-slug-x1y2"], user.env, 5, /^error: .+/);
    await fails(["get", video(FAKE_IDS.unavailable)], user.env, 5, /unavailable/i);
    await fails(["get", "no-such-recording.mp3"], user.env, 2, /No such file: no-such-recording\.mp3/);
    await fails(["get", "--format", "docx", video(FAKE_IDS.captioned)], user.env, 2, /docx/);
    await fails(["history", "--limit", "500"], user.env, 2, /limit/);
    await fails(
      ["whoami"],
      { ...user.env, VERBATIM_BASE_URL: "http://127.0.0.1:9" },
      6,
      /Cannot reach http:\/\/127\.0\.0\.1:9/,
    );

    // A server whose /health says speech recognition is off: a file is refused before any upload.
    const asked: string[] = [];
    let health: Record<string, string> = { status: "ok", speech_recognition: "off", speech_model: "" };
    const off = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(req.url === "/health" ? 200 : 500, { "content-type": "application/json" });
      res.end(JSON.stringify(req.url === "/health" ? health : {}));
    });
    await new Promise<void>((resolve) => off.listen(0, "127.0.0.1", resolve));
    const recording = path.join(configHome, "talk.wav");
    await writeFile(recording, Buffer.alloc(4096));
    try {
      await fails(
        ["get", recording],
        { ...user.env, VERBATIM_BASE_URL: `http://127.0.0.1:${(off.address() as AddressInfo).port}` },
        6,
        /talk\.wav: this server cannot transcribe files.*Nothing was uploaded/,
      );
      expect(asked).toEqual(["GET /health"]);
      // Its setup checks found the speech model missing and not downloadable: refused the same way.
      health = {
        status: "ok",
        speech_recognition: "local",
        speech_model: "base-q5_1",
        setup: "degraded",
        setup_failing: "youtube,speech_model",
      };
      await fails(
        ["get", recording],
        { ...user.env, VERBATIM_BASE_URL: `http://127.0.0.1:${(off.address() as AddressInfo).port}` },
        6,
        /talk\.wav: .*speech model is missing and cannot be downloaded.*ASR_LOCAL_MODEL_PATH.*Nothing was uploaded/,
      );
      expect(asked).toEqual(["GET /health", "GET /health"]);
    } finally {
      await new Promise((resolve) => off.close(resolve));
    }

    const { chargeSeconds } = await import("@/lib/usage/charge");
    await ctx.db.$transaction((tx) => chargeSeconds(tx, user.userId, 900));
    await fails(["get", video(FAKE_IDS.captioned)], user.env, 4, /allowance/);
  });
});

describe("waiting for a job", () => {
  it("Ctrl-C leaves the job running and `verbatim job <id>` picks it up; a job that fails for the allowance exits 4", async () => {
    const user = await apiKeyUser();
    const running = startCli(["get", video(FAKE_IDS.noCaptions)], user.env);
    const [, jobId] = await running.waitForStderr(/Job ([\w-]+) started/);
    running.interrupt();
    const interrupted = await running.done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain(`Resume with: verbatim job ${jobId}`);
    expect(interrupted.stdout).toBe("");
    expect(await ctx.db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "queued" });

    // Picked up while the job still runs, then it ends on the server: the transcript comes out on stdout.
    const resumed = startCli(["job", jobId!], user.env);
    await resumed.waitForStderr(new RegExp(`Job ${jobId} is still running`));
    const talk = await seedTranscript(ctx.db, user.userId, { videoId: nextVideo() });
    await ctx.db.job.update({ where: { id: jobId }, data: { status: "done", transcriptId: talk.id } });
    const done = await resumed.done;
    expectPlain(done);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain((talk.segments as { text: string }[])[0]!.text);

    // The job measured the audio as longer than the allowance left: it fails with that code, and so does the CLI.
    await ctx.db.job.update({ where: { id: jobId }, data: { status: "running", transcriptId: null } });
    const waiting = startCli(["job", jobId!], user.env);
    await waiting.waitForStderr(new RegExp(`Job ${jobId} is still running`));
    await ctx.db.job.update({
      where: { id: jobId },
      data: {
        status: "error",
        errorCode: "allowance_exhausted",
        errorMessage: "This audio is 17 minutes long; 15 minutes of this month's allowance are left.",
      },
    });
    const refused = await waiting.done;
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(new RegExp(`^error: Job ${jobId} failed: .*allowance`, "m"));
  });
});

describe("login and logout", () => {
  it("the device flow stores a 0600 login that whoami uses; logout revokes it on the server, and then commands exit 3", async () => {
    const approver = await apiKeyUser();
    const env = await userEnv(null);
    const login = startCli(["login", "--json", "--no-browser"], env);
    const [, userCode] = await login.waitForStderr(/one-time code: (\S+)/);
    await login.waitForStderr(/\/device\?user_code=/);
    const approved = await fetch(`${served.url}/v1/device/approve`, {
      method: "POST",
      headers: { ...approver.headers, "content-type": "application/json" },
      body: JSON.stringify({ user_code: userCode }),
    });
    expect(approved.status).toBe(200);
    const done = await login.done;
    expectPlain(done);
    expect(done.code, done.stderr).toBe(0);
    const loggedIn = z.strictObject({ base_url: z.string(), user: meSchema }).parse(JSON.parse(done.stdout));
    expect(loggedIn.user).toMatchObject({ id: approver.userId, via: "oauth" });

    const file = path.join(env.XDG_CONFIG_HOME, "verbatim", "credentials.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, "utf8")) as {
      default_base_url: string;
      logins: Record<string, { access_token: string }>;
    };
    expect(stored.default_base_url).toBe(served.url);
    const token = stored.logins[served.url].access_token;

    // The stored login is found without VERBATIM_BASE_URL (the last login's server).
    const me = await json(whoamiSchema, ["whoami"], { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME });
    expect(me).toMatchObject({ credential: "login", user: { id: approver.userId } });

    // An expired access token is refreshed once, however many requests run at once (a refresh token works
    // once; a second use would end the login), and the rotated tokens are stored.
    stored.logins[served.url] = {
      ...stored.logins[served.url],
      expires_at: new Date(Date.now() - 1000).toISOString(),
    } as never;
    await writeFile(file, JSON.stringify(stored));
    const inputs = [FAKE_IDS.captioned, FAKE_IDS.captioned, FAKE_IDS.unavailable].map(video).join("\n");
    const parallel = await runCli(["get", "-", "--json", "--concurrency", "3"], env, inputs);
    expect(parallel.code, parallel.stderr).toBe(5);
    expect(getManySchema.parse(JSON.parse(parallel.stdout)).filter((r) => "transcript" in r)).toHaveLength(2);
    const rotated = JSON.parse(await readFile(file, "utf8")) as typeof stored;
    expect(rotated.logins[served.url].access_token).not.toBe(token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await json(whoamiSchema, ["whoami"], env);

    const out = await json(
      z.strictObject({ base_url: z.string(), logged_out: z.boolean(), revoked: z.boolean() }),
      ["logout"],
      env,
    );
    expect(out).toEqual({ base_url: served.url, logged_out: true, revoked: true });
    expect(
      (
        await fetch(`${served.url}/v1/me`, {
          headers: { authorization: `Bearer ${rotated.logins[served.url].access_token}` },
        })
      ).status,
    ).toBe(401);
    await fails(["whoami"], env, 3, /Not logged in/);
  });
});
