import { Ajv2020 } from "ajv/dist/2020.js";
import { XMLValidator } from "fast-xml-parser";
import webvtt from "webvtt-parser";
import htmlEntities from "webvtt-parser/html-entities.json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";
import { validateSrt } from "@/test/formats/srt-validator";
import { PODCAST_TRANSCRIPT_SCHEMA } from "@/test/formats/podcast-transcript-schema";
import { normalizeSegments, type Segment } from "@/lib/formats";

// The files a podcast feed links to, through the route handlers against PostgreSQL: the real TED "Grit" captions
// (test/publishing.ts) published, read as VTT, SRT, Podcasting 2.0 JSON and HTML.

const APP_URL = "https://verbatim.example";
const KINDS = ["vtt", "srt", "json", "html"] as const;
type Kind = (typeof KINDS)[number];
type Handler = Parameters<typeof callRoute>[0];

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let routes: Record<Kind, Handler>;
let publishRoute: Handler;
let unpublishRoute: Handler;
let publicRoute: Handler;
let downloadRoute: Handler;

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  routes = {
    vtt: (await import("@/app/v1/public/[slug]/transcript.vtt/route")).GET,
    srt: (await import("@/app/v1/public/[slug]/transcript.srt/route")).GET,
    json: (await import("@/app/v1/public/[slug]/transcript.json/route")).GET,
    html: (await import("@/app/v1/public/[slug]/transcript.html/route")).GET,
  };
  publishRoute = (await import("@/app/v1/publish/route")).POST;
  unpublishRoute = (await import("@/app/v1/publish/[slug]/route")).DELETE;
  publicRoute = (await import("@/app/v1/public/[slug]/route")).GET;
  downloadRoute = (await import("@/app/v1/public/[slug]/download/route")).GET;
});
afterAll(async () => ctx?.teardown());

const vttParser = new webvtt.WebVTTParser(htmlEntities as Record<string, string>);
const validateJson = new Ajv2020({ strict: true, allErrors: true }).compile(PODCAST_TRANSCRIPT_SCHEMA);

let videoCounter = 0;
const newVideoId = () => `pod${String(++videoCounter).padStart(4, "0")}${Math.random().toString(36).slice(2, 6)}`;

/** A user with the Grit captions in their history, published; its slug and transcript. */
async function published() {
  const user = await createUser(ctx.db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  const headers = bearer(key!);
  const videoId = newVideoId().slice(0, 11);
  const transcript = await seedTranscript(ctx.db, user.id, { videoId });
  const res = await callRoute(publishRoute, "/v1/publish", {
    method: "POST",
    headers,
    body: { url: `https://www.youtube.com/watch?v=${videoId}` },
  });
  expect(res.status).toBe(200);
  return { user, headers, transcript, slug: (res.json as { slug: string }).slug };
}

const file = (slug: string, kind: Kind, headers: Record<string, string> = {}) =>
  callRoute(routes[kind], `/v1/public/${slug}/transcript.${kind}`, { headers, params: { slug } });

const CONTENT_TYPES: Record<Kind, string> = {
  vtt: "text/vtt; charset=utf-8",
  srt: "application/x-subrip; charset=utf-8",
  json: "application/json; charset=utf-8",
  html: "text/html; charset=utf-8",
};

describe("GET /v1/public/{slug}/transcript.{vtt,srt,json,html}", () => {
  it("serves each file with its type, the language, CORS for any origin, validators and a shared-cache rule; a WebVTT parser, an SRT validator and the JSON schema accept them", async () => {
    const { slug, transcript } = await published();
    const lines = normalizeSegments(transcript.segments as unknown as Segment[]);
    const etags = new Set<string>();
    for (const kind of KINDS) {
      const res = await file(slug, kind);
      expect(res.status, kind).toBe(200);
      expect(res.headers.get("content-type")).toBe(CONTENT_TYPES[kind]);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("content-language")).toBe("en");
      expect(res.headers.get("cache-control")).toMatch(/^public, .*s-maxage=\d+/);
      expect(res.headers.get("content-disposition")).toBeNull();
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^W\/".+"$/);
      etags.add(etag);

      if (kind === "vtt") {
        const parsed = vttParser.parse(res.text);
        expect(parsed.errors).toEqual([]);
        expect(parsed.cues).toHaveLength(lines.length);
      } else if (kind === "srt") {
        expect(validateSrt(res.text)).toEqual([]);
        expect(res.text.match(/ --> /g)).toHaveLength(lines.length);
      } else if (kind === "json") {
        if (!validateJson(res.json)) expect.fail(JSON.stringify(validateJson.errors));
        expect((res.json as { segments: unknown[] }).segments).toHaveLength(lines.length);
      } else {
        expect(XMLValidator.validate(res.text)).toBe(true);
        expect(res.text).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
        expect(res.text.match(/<time>/g)).toHaveLength(lines.length);
      }

      const again = await file(slug, kind, { "if-none-match": etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("access-control-allow-origin")).toBe("*");
      const since = await file(slug, kind, { "if-modified-since": res.headers.get("last-modified")! });
      expect(since.status).toBe(304);
    }
    expect(etags.size).toBe(KINDS.length);
  });

  it("keeps the URL while the text changes: the publisher's correction is served under a new ETag, speakers included", async () => {
    const { user, slug, transcript } = await published();
    const before = await file(slug, "json");
    const etag = before.headers.get("etag")!;
    const original = transcript.segments as unknown as Segment[];
    const corrected: Segment[] = original.map((s, i) =>
      i === 0 ? { ...s, text: "A corrected first line.", speaker: "Angela Lee Duckworth" } : s,
    );
    await ctx.db.transcriptRevision.create({
      data: {
        userId: user.id,
        transcriptId: transcript.id,
        segments: corrected as object[],
        sizeBytes: JSON.stringify(corrected).length,
        createdAt: new Date(transcript.fetchedAt.getTime() + 60_000),
      },
    });

    const after = await file(slug, "json", { "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((after.json as { segments: unknown[] }).segments[0]).toEqual({
      speaker: "Angela Lee Duckworth",
      startTime: original[0]!.start,
      endTime: expect.any(Number),
      body: "A corrected first line.",
    });
    const html = await file(slug, "html");
    expect(html.text).toContain("<cite>Angela Lee Duckworth:</cite>\n<time>0:");
    expect(html.text.match(/<cite>/g)).toHaveLength(1);
    expect((await file(slug, "vtt")).text).toContain("A corrected first line.");
  });

  it("answers unpublished, unknown and malformed slugs with the same 404, readable from any origin", async () => {
    const { headers, slug } = await published();
    const gone = await callRoute(unpublishRoute, `/v1/publish/${slug}`, {
      method: "DELETE",
      headers,
      params: { slug },
    });
    expect(gone.status).toBe(204);
    for (const kind of KINDS) {
      for (const target of [slug, "grit-the-power-zzzzzz", "..%2F..%2Fetc"]) {
        const res = await file(target, kind);
        expect(res.status, `${kind} ${target}`).toBe(404);
        expect(res.json).toEqual({ code: "not_found", detail: "No published transcript has this slug." });
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
      }
    }
  });
});

describe("GET /v1/public/{slug} lists the files for a feed", () => {
  it("as podcast_transcripts with absolute URLs that serve them, and answers any origin, as the download does", async () => {
    const { slug } = await published();
    const res = await callRoute(publicRoute, `/v1/public/${slug}`, { params: { slug } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const links = (res.json as { podcast_transcripts: { url: string; type: string; language: string; rel: string }[] })
      .podcast_transcripts;
    expect(links.map(({ type, language, rel }) => [type, language, rel])).toEqual([
      ["text/vtt", "en", "captions"],
      ["application/x-subrip", "en", "captions"],
      ["application/json", "en", "captions"],
      ["text/html", "en", null],
    ]);
    for (const [i, link] of links.entries()) {
      const url = new URL(link.url);
      expect(url.origin).toBe(APP_URL);
      const kind = KINDS[i]!;
      expect(url.pathname).toBe(`/v1/public/${slug}/transcript.${kind}`);
      const served = await file(slug, kind);
      expect(served.headers.get("content-type")).toBe(`${link.type}; charset=utf-8`);
    }

    const download = await callRoute(downloadRoute, `/v1/public/${slug}/download?format=srt`, { params: { slug } });
    expect(download.status).toBe(200);
    expect(download.headers.get("access-control-allow-origin")).toBe("*");
  });
});
