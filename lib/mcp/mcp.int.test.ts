import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  auth,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as oauth from "oauth4webapi";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { lazy, serveRoutes, type ServedRoutes } from "@/test/serve-routes";
import { connectWithOAuth, REDIRECT_URI } from "@/test/mcp-oauth-client";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { createOutbound } from "@/lib/http/outbound";
import { createYoutubeProvider } from "@/lib/captions/youtube";
import { sha256Hex } from "@/lib/auth/tokens";
import type { TranscriptDeps } from "@/lib/transcripts/deps";

// The MCP endpoint with the official SDK's client over Streamable HTTP (real HTTP, real PostgreSQL, the
// real youtubei.js against the YouTube fake): discovery without a credential, then every tool with an
// API key and with an OAuth access token bound to the MCP resource.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakeYoutube;
let podcasts: FakePodcastServer;
let served: ServedRoutes;
const routes: Parameters<typeof serveRoutes>[0] = {};
let mcpUrl: URL;

const video = (id: string) => `https://www.youtube.com/watch?v=${id}`;

beforeAll(async () => {
  served = await serveRoutes(routes);
  // The app's own URL is this server's, so the metadata and the challenge name it. A speech-recognition
  // provider must be configured for a job to be accepted; no runner runs here, so jobs stay queued.
  process.env.APP_URL = served.url;
  process.env.ASR_OPENAI_BASE_URL = "http://127.0.0.1:9";
  ctx = await useTestDatabase();
  fake = await startFakeYoutube();
  podcasts = await startFakePodcastServer();
  const allowPrivateFor = (host: string) => host === "127.0.0.1";
  const outbound = createOutbound({ allowPrivateFor });
  const youtube = createYoutubeProvider({ outbound, innertubeBaseUrl: fake.url });
  const deps: TranscriptDeps = {
    outbound,
    allowPrivateFor,
    providerFor: (p) => (p === "youtube" ? youtube : null),
    cacheHours: 24,
  };
  const { createMcpHandler } = await import("@/lib/mcp/handler");
  const { protectedResourceMetadataResponse } = await import("@/lib/mcp/metadata-route");
  const podcastDeps = { outbound, allowPrivateFor, lookupUrl: `${podcasts.origin}/lookup`, maxBytes: 5 * 1024 * 1024 };
  const handler = createMcpHandler({ deps: () => deps, podcastDeps: () => podcastDeps, waitMs: 300, pollMs: 50 });
  routes["/mcp"] = { GET: handler, POST: handler, DELETE: handler };
  routes["/.well-known/oauth-protected-resource"] = {
    GET: lazy(() => import("@/app/.well-known/oauth-protected-resource/route"), "GET"),
  };
  routes["/.well-known/oauth-protected-resource/mcp"] = { GET: async () => protectedResourceMetadataResponse() };
  // The authorization server, so the SDK's client can run the whole OAuth dance against this app.
  routes["/.well-known/oauth-authorization-server"] = {
    GET: lazy(() => import("@/app/.well-known/oauth-authorization-server/route"), "GET"),
  };
  routes["/oauth/register"] = { POST: lazy(() => import("@/app/oauth/register/route"), "POST") };
  routes["/oauth/token"] = { POST: lazy(() => import("@/app/oauth/token/route"), "POST") };
  routes["/v1/oauth/authorize"] = { POST: lazy(() => import("@/app/v1/oauth/authorize/route"), "POST") };
  mcpUrl = new URL("/mcp", served.url);
});
afterAll(async () => {
  await served?.close();
  await fake?.close();
  await podcasts?.close();
  await ctx?.teardown();
});

/** Seconds as an SRT time (HH:MM:SS,mmm). */
const srtTime = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString().slice(11, 23).replace(".", ",");

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "verbatim-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } }));
  return client;
}

const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const post = (headers: Record<string, string>, body = initialize) =>
  fetch(mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });

describe("without a credential", () => {
  it("answers 401 with a challenge that leads to the protected resource metadata, as the SDK discovers it", async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^Bearer /);
    const params = extractWWWAuthenticateParams(response);
    expect(params.resourceMetadataUrl?.href).toBe(`${served.url}/.well-known/oauth-protected-resource/mcp`);
    expect(params.scope).toBe("api");

    const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl, {
      resourceMetadataUrl: params.resourceMetadataUrl,
    });
    expect(metadata).toMatchObject({
      resource: `${served.url}/mcp`,
      authorization_servers: [served.url],
      scopes_supported: ["api"],
      bearer_methods_supported: ["header"],
    });
    // Without the header's hint the SDK tries the path-suffixed well-known URL.
    expect(await discoverOAuthProtectedResourceMetadata(mcpUrl)).toEqual(metadata);
  });

  it("serves RFC 9728 documents oauth4webapi accepts: /mcp's names /mcp, the root has none (404)", async () => {
    const insecure = { [oauth.allowInsecureRequests]: true };
    const metadata = await oauth.processResourceDiscoveryResponse(
      mcpUrl,
      await oauth.resourceDiscoveryRequest(mcpUrl, insecure),
    );
    expect(metadata.resource).toBe(mcpUrl.href);
    expect(metadata.authorization_servers).toEqual([served.url]);
    const origin = new URL(served.url);
    const root = await oauth.resourceDiscoveryRequest(origin, insecure);
    expect(root.status).toBe(404);
    expect(await root.clone().json()).toEqual({
      detail: expect.stringContaining("/.well-known/oauth-protected-resource/mcp"),
      code: "not_found",
    });
    await expect(oauth.processResourceDiscoveryResponse(origin, root)).rejects.toThrow();
  });

  it("refuses the SDK client's connection", async () => {
    await expect(connect({})).rejects.toThrow(/401|nauthorized/);
  });

  it("a wrong API key or an unknown access token is invalid_token", async () => {
    for (const token of ["vbt_not-a-real-key", "opaque-token-nobody-issued"]) {
      const response = await post({ authorization: `Bearer ${token}` });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
      expect(response.headers.get("www-authenticate")).toMatch(/resource_metadata="/);
    }
  });
});

describe("with an API key", () => {
  let caller: Awaited<ReturnType<typeof createCaller>>;
  let client: Client;
  beforeAll(async () => {
    caller = await createCaller(ctx.db);
    client = await connect(caller.headers);
  });
  afterAll(async () => client?.close());

  it("announces only what a stateless server does: tools, without listChanged (it can never notify)", async () => {
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it("lists the tools, each with a description and input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "create_alert",
        "delete_alert",
        "edit_transcript",
        "export_note",
        "get_alert_matches",
        "get_job",
        "get_transcript",
        "get_usage",
        "list_alerts",
        "list_languages",
        "pause_alert",
        "publish_transcript",
        "resolve_podcast",
        "search_transcriptions",
        "search_transcripts",
        "unpublish_transcript",
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
    const { TOOL_NAMES } = await import("@/lib/mcp/tools");
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    const getTranscript = tools.find((tool) => tool.name === "get_transcript")!;
    expect(Object.keys(getTranscript.inputSchema.properties ?? {})).toEqual([
      "url",
      "lang",
      "format",
      "recognize",
      "from_segment",
      "from_seconds",
      "to_seconds",
      "from_character",
      "max_characters",
      "words",
    ]);
  });

  it("get_transcript: the captions once, as [hh:mm:ss] lines under a title header; structuredContent says what and which part", async () => {
    const result = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content).toHaveLength(1);
    expect(text(result)).toMatch(
      /^# .+\nSource: https:\/\/www\.youtube\.com\/watch\?v=Hq7sWc2dT4E\nLanguage: en \(manual captions\)/,
    );
    expect(text(result)).toMatch(/\n\[00:00:\d\d\] \[MUSIC\]\n/);
    const structured = result.structuredContent as {
      status: string;
      job_id: null;
      transcript: Record<string, unknown>;
      page: { total_segments: number; next_from_segment: number | null };
    };
    expect(structured.status).toBe("done");
    expect(structured.job_id).toBeNull();
    expect(structured.transcript.video_id).toBe(FAKE_IDS.captioned);
    // The transcript is not repeated in the structured answer.
    expect(structured.transcript).not.toHaveProperty("segments");
    expect(JSON.stringify(structured)).not.toContain("[MUSIC]");
    expect(structured.page.total_segments).toBeGreaterThan(0);
    expect(structured.page.next_from_segment).toBeNull();

    // format=text has the [hh:mm:ss] stamps the description promises.
    const plain = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), format: "text" },
    })) as CallToolResult;
    expect(text(plain)).toMatch(/\n\[00:00:\d\d\] \[MUSIC\]\n/);
    // Markdown brings its own header: the title is there once.
    const md = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), format: "md" },
    })) as CallToolResult;
    expect(text(md).match(/^# /gm)).toHaveLength(1);
    expect(text(md)).toMatch(/^The whole transcript: \d+ segments/);
    // Paging: one segment at a time by range, and a time window.
    const second = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), from_segment: 1, max_characters: 2000 },
    })) as CallToolResult;
    expect((second.structuredContent as { page: { from_segment: number } }).page.from_segment).toBe(1);
    expect(text(second)).toMatch(/\nSegments 1–\d+ of \d+ \(/);
    expect(text(second).split("\n\n")[1]).not.toBe(text(result).split("\n\n")[1]);
    // Past the end: a tool error that says where the end is, not an empty page.
    const total = (second.structuredContent as { page: { total_segments: number } }).page.total_segments;
    const past = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), from_segment: total },
    })) as CallToolResult;
    expect(past.isError).toBe(true);
    expect(text(past)).toContain(`from_segment: must be less than total_segments (${total})`);

    // Cached: a repeat in another format makes no upstream call.
    const before = fake.requests.length;
    const srt = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), format: "srt" },
    })) as CallToolResult;
    expect(text(srt)).toMatch(/\n\n1\n00:00:\d\d,\d{3} --> /);
    expect(fake.requests.length).toBe(before);
  });

  it("get_transcript without captions: waits a bounded time, then names the job; get_job polls it", async () => {
    const result = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.noCaptions) },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const { status, job_id } = result.structuredContent as { status: string; job_id: string };
    expect(status).toBe("queued");
    expect(job_id).toEqual(expect.any(String));
    expect(text(result)).toContain(`get_job with job_id "${job_id}"`);

    const job = (await client.callTool({ name: "get_job", arguments: { job_id } })) as CallToolResult;
    expect(job.structuredContent).toMatchObject({ job_id, status: "queued", transcript: null });
    expect(text(job)).toContain(job_id);
  });

  it("a language the video lacks: the languages it has, and nothing started or charged; recognize: true starts it", async () => {
    const asked = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), lang: "ja" },
    })) as CallToolResult;
    expect(asked.isError).toBe(true);
    expect(text(asked)).toMatch(
      /^This video has no captions in 'ja'\. It has captions in: .*\ben\b.*\bde\b.*Call get_transcript with one of those as lang, or with recognize: true/,
    );
    expect(text(asked)).not.toMatch(/\/v1\//);
    expect(await ctx.db.transcription.count({ where: { userId: caller.userId, lang: "ja" } })).toBe(0);
  });

  it("messages name tools, not REST paths", async () => {
    const unpublished = (await client.callTool({
      name: "publish_transcript",
      arguments: { url: video(FAKE_IDS.noCaptions), lang: "de" },
    })) as CallToolResult;
    expect(unpublished.isError).toBe(true);
    expect(text(unpublished)).toContain("get_transcript");
    expect(text(unpublished)).not.toMatch(/\/v1\//);
    const { namingTools } = await import("@/lib/mcp/tools");
    expect(namingTools("Poll GET /v1/jobs/{job_id}, or see GET /v1/languages and POST /v1/podcast/resolve.")).toBe(
      "Poll get_job, or see list_languages and resolve_podcast.",
    );
  });

  it("a direct audio URL gets a title: its file name, shown in the history", async () => {
    const other = await createCaller(ctx.db);
    const own = await connect(other.headers);
    try {
      const started = (await own.callTool({
        name: "get_transcript",
        arguments: { url: `${podcasts.origin}/ex/talks/lecture.mp3` },
      })) as CallToolResult;
      expect(started.isError).toBeFalsy();
      expect(started.structuredContent).toMatchObject({ status: "queued", transcript: null, page: null });
      const listed = (await own.callTool({ name: "search_transcriptions", arguments: {} })) as CallToolResult;
      expect(
        (listed.structuredContent as { transcriptions: { title: string | null }[] }).transcriptions[0]?.title,
      ).toBe("lecture.mp3");
      expect(text(listed)).toContain('"lecture.mp3" podcast');
    } finally {
      await own.close();
    }
  });

  it("get_job on an unknown id is a tool error with the API's sentence", async () => {
    const result = (await client.callTool({ name: "get_job", arguments: { job_id: "no-such-job" } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("No job with this id. (not_found)");
  });

  it("bad input is a tool error, not a protocol failure", async () => {
    const unknown = (await client.callTool({
      name: "get_transcript",
      arguments: { url: "https://example.com/not-a-video" },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(text(unknown).length).toBeGreaterThan(10);
    const badLang = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned), lang: "not a language" },
    })) as CallToolResult;
    expect(badLang.isError).toBe(true);
    expect(text(badLang)).toMatch(/lang/);
    const gone = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.unavailable) },
    })) as CallToolResult;
    expect(gone.isError).toBe(true);
    expect(text(gone)).toMatch(/\(video_unavailable\)$/);
  });

  it("arguments PostgreSQL cannot store (NUL, an unpaired surrogate) are an 'Invalid input' tool error for every tool", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["get_job", { job_id: "a\u0000b" }],
      ["unpublish_transcript", { slug: "x\u0000" }],
      ["get_transcript", { url: `${video(FAKE_IDS.captioned)}\u0000` }],
      ["search_transcriptions", { q: "\uD800" }],
      ["publish_transcript", { url: `\u0000${video(FAKE_IDS.captioned)}` }],
    ];
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, name).toBe(true);
      expect(text(result), name).toMatch(
        /^Invalid input: \w+: Value error, String should (not contain NUL|be valid Unicode)/,
      );
    }
  });

  it("list_languages: the video's caption tracks", async () => {
    const result = (await client.callTool({
      name: "list_languages",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    const info = result.structuredContent as { video_id: string; languages: { code: string; kind: string }[] };
    expect(info.video_id).toBe(FAKE_IDS.captioned);
    expect(info.languages.map((l) => `${l.code}:${l.kind}`)).toEqual(
      expect.arrayContaining(["en:manual", "en:auto", "de:manual"]),
    );
    expect(text(result)).toMatch(/- de: .+ \(manual\)/);
  });

  it("search_transcriptions: the caller's history, filtered", async () => {
    const all = (await client.callTool({ name: "search_transcriptions", arguments: {} })) as CallToolResult;
    expect((all.structuredContent as { total: number }).total).toBe(2);
    const one = (await client.callTool({
      name: "search_transcriptions",
      arguments: { q: FAKE_IDS.captioned.slice(2, 8).toLowerCase() },
    })) as CallToolResult;
    const list = one.structuredContent as { total: number; transcriptions: { video_id: string; status: string }[] };
    expect(list.total).toBe(1);
    expect(list.transcriptions[0]).toMatchObject({ video_id: FAKE_IDS.captioned, status: "done" });
    expect(text(one)).toContain(FAKE_IDS.captioned);
  });

  it("export_note: a transcript of the history as a Markdown note, in parts; another's is not found", async () => {
    const { seedTranscript } = await import("@/test/publishing");
    const entry = { transcriptId: (await seedTranscript(ctx.db, caller.userId, { videoId: "zzzexport00" })).id };
    const whole = (await client.callTool({
      name: "export_note",
      arguments: { transcript_id: entry!.transcriptId },
    })) as CallToolResult;
    expect(whole.isError, text(whole)).toBeFalsy();
    const note = text(whole);
    expect(note).toMatch(/^---\ntitle: /);
    expect(note).toContain(`verbatim_id: ${entry!.transcriptId}`);
    const about = whole.structuredContent as {
      file_name: string;
      total_characters: number;
      next_offset: number | null;
    };
    expect(about).toMatchObject({ total_characters: note.length, next_offset: null });
    expect(about.file_name).toMatch(/ \([a-z2-7]{10}\)\.md$/);

    const first = (await client.callTool({
      name: "export_note",
      arguments: { transcript_id: entry!.transcriptId, max_characters: 1000 },
    })) as CallToolResult;
    const next = (first.structuredContent as { next_offset: number }).next_offset;
    const rest = (await client.callTool({
      name: "export_note",
      arguments: { transcript_id: entry!.transcriptId, offset: next, max_characters: 200_000 },
    })) as CallToolResult;
    expect(text(first) + text(rest)).toBe(note);

    const other = await createCaller(ctx.db);
    const theirs = await seedTranscript(ctx.db, other.userId, { videoId: "zzzexport01" });
    const refused = (await client.callTool({
      name: "export_note",
      arguments: { transcript_id: theirs.id },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("(not_found)");
  });

  it("search_transcripts: moments of what was said, with times, bold matches and links", async () => {
    const result = (await client.callTool({
      name: "search_transcripts",
      arguments: { q: "bread rising" },
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    const found = result.structuredContent as {
      results: { start: number; links: { source: string } }[];
      next_cursor: string | null;
    };
    // The captioned video's English track: "Today we're going to talk about why bread rises" at 5.685 s.
    expect(found.results[0]).toMatchObject({ start: 5.685, links: { source: `${video(FAKE_IDS.captioned)}&t=5s` } });
    expect(text(result)).toContain("[00:00:05]");
    expect(text(result)).toMatch(/\*\*bread\*\* \*\*rises\*\*/);
    const none = (await client.callTool({
      name: "search_transcripts",
      arguments: { q: "zeppelin" },
    })) as CallToolResult;
    expect((none.structuredContent as { results: unknown[] }).results).toEqual([]);
    expect(text(none)).toBe('Nothing in your transcripts matches "zeppelin".');
    const bad = (await client.callTool({ name: "search_transcripts", arguments: { q: "" } })) as CallToolResult;
    expect(bad.isError).toBe(true);
  });

  it("edit_transcript: replaces a word everywhere; get_transcript and search_transcripts then read the correction", async () => {
    const got = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    const id = (got.structuredContent as { transcript: { id: string } }).transcript.id;
    const edited = (await client.callTool({
      name: "edit_transcript",
      arguments: { transcript_id: id, replacements: [{ find: "bread", replace: "sourdough" }] },
    })) as CallToolResult;
    expect(edited.isError, text(edited)).toBeFalsy();
    expect((edited.structuredContent as { replaced: number }).replaced).toBeGreaterThan(0);
    const again = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    expect(text(again)).toContain("sourdough");
    expect((again.structuredContent as { transcript: { edited?: boolean } }).transcript.edited).toBe(true);
    const found = (await client.callTool({
      name: "search_transcripts",
      arguments: { q: "sourdough" },
    })) as CallToolResult;
    expect((found.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    const none = (await client.callTool({
      name: "edit_transcript",
      arguments: { transcript_id: id },
    })) as CallToolResult;
    expect(none.isError).toBe(true);
    const restored = (await client.callTool({
      name: "edit_transcript",
      arguments: { transcript_id: id, restore: true },
    })) as CallToolResult;
    expect((restored.structuredContent as { edited: boolean }).edited).toBe(false);
    const back = (await client.callTool({
      name: "get_transcript",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    expect(text(back)).not.toContain("sourdough");
  });

  it("edit_transcript on a speaker-labelled transcript: replacements and a corrected file keep every speaker and the unchanged words' times", async () => {
    const { storeTranscript } = await import("@/test/search");
    const { readTranscript } = await import("@/lib/transcripts/read");
    const host = [
      { start: 0, end: 0.5, text: "Welcome" },
      { start: 0.5, end: 0.8, text: "back," },
      { start: 0.8, end: 1.5, text: "Jon." },
    ];
    const segments = [
      { start: 0, end: 1.5, text: "Welcome back, Jon.", speaker: "Host", words: host },
      { start: 2, end: 4, text: "Thanks, it is good to be here.", speaker: "Jon Smith" },
      { start: 4, end: 6, text: "Jon writes about bread.", speaker: "Host" },
    ];
    const { transcript } = await storeTranscript(ctx.db, {
      segments,
      lang: "en",
      title: "Named",
      userIds: [caller.userId],
    });
    const seen = async () => (await readTranscript(caller.userId, transcript.id)).segments as typeof segments;
    const replaced = (await client.callTool({
      name: "edit_transcript",
      arguments: { transcript_id: transcript.id, replacements: [{ find: "Jon", replace: "John" }] },
    })) as CallToolResult;
    expect(replaced.isError, text(replaced)).toBeFalsy();
    expect((replaced.structuredContent as { replaced: number }).replaced).toBe(2);
    const afterReplace = await seen();
    expect(afterReplace.map((s) => s.speaker)).toEqual(["Host", "Jon Smith", "Host"]);
    expect(afterReplace[0]!.words).toEqual([host[0], host[1], { start: 0.8, end: 1.5, text: "John." }]);
    expect(afterReplace[2]!.text).toBe("John writes about bread.");

    const srt = afterReplace
      .map((s, i) => `${i + 1}\n${srtTime(s.start)} --> ${srtTime(s.end)}\n${s.text.replace("bread", "sourdough")}\n`)
      .join("\n");
    const fromFile = (await client.callTool({
      name: "edit_transcript",
      arguments: { transcript_id: transcript.id, format: "srt", content: srt },
    })) as CallToolResult;
    expect(fromFile.isError, text(fromFile)).toBeFalsy();
    const afterFile = await seen();
    expect(afterFile.map((s) => s.speaker)).toEqual(["Host", "Jon Smith", "Host"]);
    expect(afterFile[0]!.words).toEqual(afterReplace[0]!.words);
    expect(afterFile[2]!.text).toBe("John writes about sourdough.");
  });

  it("search_transcripts: a query it cannot run is a tool error that says why, never 'something went wrong'", async () => {
    for (const q of ["-".repeat(33), "- ".repeat(40), " -zz".repeat(125), "grit OR -zz"]) {
      const result = (await client.callTool({ name: "search_transcripts", arguments: { q } })) as CallToolResult;
      expect(result.isError, q).toBe(true);
      expect(text(result), q).toMatch(/^Invalid input: q: .*(word to find|at most 32)/);
    }
    const fine = (await client.callTool({
      name: "search_transcripts",
      arguments: { q: `bread ${"-".repeat(40)}` },
    })) as CallToolResult;
    expect(fine.isError, text(fine)).toBeFalsy();
  });

  it("a giant segment: get_transcript keeps max_characters, page after page; search's context is bounded", async () => {
    const giantText = `${"lorem ipsum dolor sit amet ".repeat(3000)}the zeppelinium moment ${"consectetur ".repeat(5000)}`;
    const { storeTranscript } = await import("@/test/search");
    const { transcript } = await storeTranscript(ctx.db, {
      segments: [
        { start: 0, end: 5, text: "Opening words." },
        { start: 5, end: 3600, text: giantText.slice(0, 150_025) },
      ],
      lang: "en",
      title: "Giant",
      userIds: [caller.userId],
    });
    const url = video(transcript.videoId);
    let args: Record<string, unknown> = { url, max_characters: 2000 };
    const page = async (request: Record<string, unknown>) => {
      const result = (await client.callTool({ name: "get_transcript", arguments: request })) as CallToolResult;
      expect(result.isError, text(result)).toBeFalsy();
      // The transcript's part, plus a header and a line saying how to continue.
      expect(text(result).length).toBeLessThanOrEqual(2000 + 600);
      const part = (result.structuredContent as { page: Record<string, number | null> }).page;
      expect(part.characters).toBeLessThanOrEqual(2000);
      return { text: text(result), part };
    };
    for (let n = 0; n < 4; n++) {
      const { part } = await page(args);
      expect(part.next_from_segment).toBe(1);
      args = { url, max_characters: 2000, from_segment: 1, from_character: part.next_from_character ?? undefined };
      if (n > 0) expect(part.next_from_character).toBeGreaterThan(0);
    }
    const last = await page({ url, max_characters: 2000, from_segment: 1, from_character: 149_000 });
    expect(last.part.next_from_segment).toBeNull();
    expect(last.text).toContain(giantText.slice(149_000, 149_100));
    const found = (await client.callTool({
      name: "search_transcripts",
      arguments: { q: "zeppelinium" },
    })) as CallToolResult;
    const results = (found.structuredContent as { results: { context: { text: string } }[] }).results;
    expect(results).toHaveLength(1);
    expect(results[0]!.context.text.length).toBeLessThanOrEqual(1_002);
    expect(text(found).length).toBeLessThan(1_000);
  });

  it("publish_transcript and unpublish_transcript", async () => {
    const published = (await client.callTool({
      name: "publish_transcript",
      arguments: { url: video(FAKE_IDS.captioned) },
    })) as CallToolResult;
    const { slug, url } = published.structuredContent as { slug: string; url: string };
    expect(url).toBe(`${served.url}/t/${slug}`);
    expect(text(published)).toContain(url);
    const row = () => ctx.db.publication.findFirst({ where: { userId: caller.userId, slug } });
    expect((await row())?.publishedAt).toBeInstanceOf(Date);

    const unpublished = (await client.callTool({
      name: "unpublish_transcript",
      arguments: { slug },
    })) as CallToolResult;
    expect(unpublished.structuredContent).toEqual({ slug, published: false });
    expect((await row())?.publishedAt).toBeNull();

    const notMine = (await client.callTool({
      name: "publish_transcript",
      arguments: { url: video(FAKE_IDS.noCaptions), lang: "de" },
    })) as CallToolResult;
    expect(notMine.isError).toBe(true);
  });

  it("resolve_podcast: a feed's show and episodes (a real feed from the Podcasting 2.0 namespace examples)", async () => {
    const result = (await client.callTool({
      name: "resolve_podcast",
      arguments: { url: `${podcasts.origin}/feeds/podcastindex-example.xml` },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const resolved = result.structuredContent as {
      kind: string;
      show: { title: string };
      episodes: { title: string; audio_url: string }[];
    };
    expect(resolved).toMatchObject({ kind: "feed", show: { title: "Podcasting 2.0 Namespace Example" } });
    expect(resolved.episodes.length).toBeGreaterThan(0);
    expect(text(result)).toMatch(/^feed: Podcasting 2\.0 Namespace Example\n\d+ episode\(s\):\n- /);
    expect(text(result)).toContain(resolved.episodes[0].audio_url);
    const html = (await client.callTool({
      name: "resolve_podcast",
      arguments: { url: "http://10.0.0.1/feed.xml" },
    })) as CallToolResult;
    expect(html.isError).toBe(true);
  });

  it("get_usage: the plan and the seconds used", async () => {
    const result = (await client.callTool({ name: "get_usage", arguments: {} })) as CallToolResult;
    const usage = result.structuredContent as { tier: string; used_seconds: number; limit_seconds: number };
    expect(usage.tier).toBe("free");
    expect(usage.used_seconds).toBeGreaterThan(0);
    expect(text(result)).toMatch(/^Free plan: [\w ]+ of 15 min used, [\w ]+ left; the period ends \d{4}-\d\d-\d\d\.$/);
  });

  it("alerts: create_alert, list_alerts, get_alert_matches, pause_alert, delete_alert; a match-everything query is a tool error", async () => {
    const created = (await client.callTool({
      name: "create_alert",
      arguments: { query: "lighthouse marmalade", scope: "public" },
    })) as CallToolResult;
    const alert = created.structuredContent as { id: string; feed_url: string; scope: { kind: string } };
    expect(alert.scope.kind).toBe("public");
    expect(text(created)).toContain(alert.feed_url);
    const listed = (await client.callTool({ name: "list_alerts", arguments: {} })) as CallToolResult;
    expect(text(listed)).toContain(`${alert.id}: "lighthouse marmalade" (public), 0 unread`);
    const matches = (await client.callTool({
      name: "get_alert_matches",
      arguments: { id: alert.id },
    })) as CallToolResult;
    expect(text(matches)).toBe("No matches yet.");
    const paused = (await client.callTool({
      name: "pause_alert",
      arguments: { id: alert.id, paused: true },
    })) as CallToolResult;
    expect(text(paused)).toBe(`Alert ${alert.id} is paused.`);
    expect(
      ((await client.callTool({ name: "delete_alert", arguments: { id: alert.id } })) as CallToolResult).isError,
    ).toBeFalsy();
    const refused = (await client.callTool({
      name: "create_alert",
      arguments: { query: "-marmalade" },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/match everything/);
  });

  it("another user's job is not visible", async () => {
    const other = await createCaller(ctx.db);
    const otherClient = await connect(other.headers);
    try {
      const mine = (await client.callTool({
        name: "search_transcriptions",
        arguments: { state: "in_progress" },
      })) as CallToolResult;
      const jobId = (mine.structuredContent as { transcriptions: { job_id: string }[] }).transcriptions[0].job_id;
      const result = (await otherClient.callTool({ name: "get_job", arguments: { job_id: jobId } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("(not_found)");
    } finally {
      await otherClient.close();
    }
  });
});

describe("HTTP rules", () => {
  it("a browser Origin other than the app's is refused with 403; the app's own is served", async () => {
    const { headers } = await createCaller(ctx.db);
    const evil = await post({ ...headers, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ code: "forbidden" });
    expect((await post({ ...headers, origin: "null" })).status).toBe(403);
    expect((await post({ ...headers, origin: served.url })).status).toBe(200);
    // The Origin is checked before anything else: no credential needed to be refused.
    expect((await post({ origin: "http://localhost.evil.example" })).status).toBe(403);
  });

  it("GET and DELETE are 405 (stateless: no stream, no session); a body that is not JSON is a JSON-RPC parse error", async () => {
    const { headers } = await createCaller(ctx.db);
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(mcpUrl, { method, headers: { ...headers, accept: "text/event-stream" } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
    const broken = await post(headers, "{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
    const big = await post(
      headers,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
  });
});

describe("an unknown tool", () => {
  it("is a JSON-RPC error -32602, not a tool result (MCP 2025-11-25 tools: error handling)", async () => {
    const { headers } = await createCaller(ctx.db);
    const response = await post(
      headers,
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "no_such_tool", arguments: {} } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32602, message: expect.stringContaining("no_such_tool") },
    });
    // The SDK's client sees it as an McpError with that code.
    const client = await connect(headers);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(((await client.callTool({ name: "get_usage", arguments: {} })) as CallToolResult).isError).toBeFalsy();
    await client.close();
  });
});

describe("hostile messages", () => {
  it("are JSON-RPC errors or tool errors in 4xx or 200, never a 500", async () => {
    const { headers } = await createCaller(ctx.db);
    const call = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params });
    const bodies = [
      "null",
      "[]",
      '"text"',
      "{}",
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}',
      "[".repeat(100) + "]".repeat(100),
      "\u0000",
      call({ name: "no_such_tool", arguments: {} }),
      call({ name: "get_transcript", arguments: { url: 42 } }),
      call({ name: "get_transcript", arguments: { url: "x".repeat(5000) } }),
      call({ name: "get_transcript", arguments: { url: "http://127.0.0.1:9/admin", format: "exe" } }),
      call({ name: "search_transcriptions", arguments: { limit: 1e9, offset: -1, platform: "myspace" } }),
      call({ name: "get_job", arguments: { job_id: "' OR 1=1 --" } }),
      call({ name: "unpublish_transcript", arguments: { slug: "../../etc/passwd" } }),
      call({ name: "get_usage" }),
      call(null),
    ];
    for (const body of bodies) {
      const response = await post(headers, body);
      expect(response.status, body.slice(0, 60)).toBeLessThan(500);
      const answer = (await response.text()) || "{}";
      expect(() => JSON.parse(answer), body.slice(0, 60)).not.toThrow();
      if (
        response.status === 200 &&
        body.includes('"tools/call"') &&
        body.includes('"name"') &&
        !body.includes("get_usage")
      ) {
        const parsed = JSON.parse(answer) as { result?: { isError?: boolean }; error?: unknown };
        expect(parsed.error ?? parsed.result?.isError, body.slice(0, 60)).toBeTruthy();
      }
    }
  });
});

describe("with an OAuth access token", () => {
  async function issueToken(userId: string, resource: string | null): Promise<string> {
    const token = `test-access-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
    await ctx.db.oAuthToken.create({
      data: {
        accessTokenHash: sha256Hex(token),
        userId,
        resource,
        scope: "api",
        accessExpiresAt: new Date(Date.now() + 3600_000),
      },
    });
    return token;
  }

  it("a token for the MCP resource is served; one for another resource is invalid_token", async () => {
    const { userId } = await createCaller(ctx.db);
    const client = await connect({ authorization: `Bearer ${await issueToken(userId, `${served.url}/mcp`)}` });
    try {
      const result = (await client.callTool({ name: "get_usage", arguments: {} })) as CallToolResult;
      expect(result.structuredContent).toMatchObject({ tier: "free", used_seconds: 0 });
    } finally {
      await client.close();
    }
    const other = await post({ authorization: `Bearer ${await issueToken(userId, `${served.url}/v1`)}` });
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });
});

describe("the full OAuth dance by the MCP SDK's own client", () => {
  it("401 → resource metadata → authorization server metadata → registration → PKCE consent → token for /mcp → tools", async () => {
    const user = await createCaller(ctx.db);
    let asked: URL | undefined;
    const { client, provider } = await connectWithOAuth(mcpUrl, async (authorizationUrl) => {
      asked = authorizationUrl;
      // The consent page's decision, as the signed-in user (here by API key), then the browser's redirect.
      const params = Object.fromEntries(authorizationUrl.searchParams);
      const res = await fetch(new URL("/v1/oauth/authorize", served.url), {
        method: "POST",
        headers: { "content-type": "application/json", ...user.headers },
        body: JSON.stringify(params),
      });
      expect(res.status).toBe(200);
      const callback = new URL(((await res.json()) as { redirect_to: string }).redirect_to);
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
      expect(callback.searchParams.get("state")).toBe(params.state ?? null);
      return callback.searchParams.get("code")!;
    });
    try {
      // The SDK asked for this endpoint as the resource, with S256.
      expect(asked?.pathname).toBe("/oauth/authorize");
      expect(asked?.searchParams.get("resource")).toBe(mcpUrl.href);
      expect(asked?.searchParams.get("code_challenge_method")).toBe("S256");
      const tokens = provider.tokens()!;
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.refresh_token).toBeTruthy();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_usage");
      // Every tool answers through the OAuth token as it does through an API key.
      const calls: Record<string, Record<string, unknown>> = {
        get_transcript: { url: video(FAKE_IDS.captioned) },
        list_languages: { url: video(FAKE_IDS.captioned) },
        search_transcriptions: {},
        search_transcripts: { q: "bread" },
        publish_transcript: { url: video(FAKE_IDS.captioned) },
        get_usage: {},
        resolve_podcast: { url: `${podcasts.origin}/feeds/podcastindex-example.xml` },
      };
      const answers: Record<string, CallToolResult> = {};
      for (const [name, args] of Object.entries(calls)) {
        answers[name] = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(answers[name].isError, `${name}: ${text(answers[name])}`).toBeFalsy();
      }
      const { slug } = answers.publish_transcript.structuredContent as { slug: string };
      const unpublished = (await client.callTool({
        name: "unpublish_transcript",
        arguments: { slug },
      })) as CallToolResult;
      expect(unpublished.isError).toBeFalsy();
      const job = (await client.callTool({ name: "get_job", arguments: { job_id: "no-such-job" } })) as CallToolResult;
      expect(job.isError).toBe(true);
      // The token is bound to /mcp (RFC 8707): it opens /mcp, not the /v1 API.
      const { findUserIdByAccessToken } = await import("@/lib/auth/oauth-tokens");
      expect(await findUserIdByAccessToken(tokens.access_token)).toBeNull();
      expect((await findUserIdByAccessToken(tokens.access_token, mcpUrl.href))?.userId).toBe(user.userId);

      // The SDK's auth() again, with tokens held: a refresh (RFC 6749 6) bound to /mcp, and the new token works.
      expect(await auth(provider, { serverUrl: mcpUrl })).toBe("AUTHORIZED");
      const renewed = provider.tokens()!;
      expect(renewed.access_token).not.toBe(tokens.access_token);
      expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
      expect((await findUserIdByAccessToken(renewed.access_token, mcpUrl.href))?.userId).toBe(user.userId);
      const again = new Client({ name: "verbatim-oauth-test", version: "1.0.0" });
      await again.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      expect(((await again.callTool({ name: "get_usage", arguments: {} })) as CallToolResult).isError).toBeFalsy();
      await again.close();
    } finally {
      await client.close();
    }
  });
});
