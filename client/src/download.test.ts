import { describe, expect, it } from "vitest";
import { createVerbatimClient } from "./index";

// A download through the raw, typed `api.GET` is the file's text, as download() gives it: openapi-fetch parses
// JSON by default, which failed on SRT and turned a JSON download into an object.

const SRT = "1\n00:00:00,000 --> 00:00:02,000\nHello\n";
const JSON_FILE = '{"segments":[{"start":0,"end":2,"text":"Hello"}]}';

function client() {
  const asked: string[] = [];
  const verbatim = createVerbatimClient({
    baseUrl: "https://verbatim.test",
    apiKey: "vbt_test",
    fetch: async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(url.pathname + url.search);
      if (url.pathname.endsWith("/transcript.json"))
        return Response.json({ version: "1.0.0", segments: [{ startTime: 0, endTime: 2, body: "Hello" }] });
      if (url.pathname.endsWith("/download") || url.pathname.endsWith("/transcript.srt")) {
        const json = url.searchParams.get("format") === "json";
        return new Response(json ? JSON_FILE : SRT, {
          headers: { "content-type": json ? "application/json" : "application/x-subrip" },
        });
      }
      return Response.json({ has_key: true, tier: "free" });
    },
  });
  return { verbatim, asked };
}

describe("api.GET of a download", () => {
  it("returns the file's text, SRT and JSON alike", async () => {
    const { verbatim, asked } = client();
    const srt = await verbatim.api.GET("/v1/transcripts/{id}/download", {
      params: { path: { id: "t1" }, query: { format: "srt" } },
    });
    expect(srt.data).toBe(SRT);
    const json = await verbatim.api.GET("/v1/transcripts/{id}/download", {
      params: { path: { id: "t1" }, query: { format: "json" } },
    });
    expect(json.data).toBe(JSON_FILE);
    const page = await verbatim.api.GET("/v1/public/{slug}/download", {
      params: { path: { slug: "a-talk" }, query: { format: "srt" } },
    });
    expect(page.data).toBe(SRT);
    expect(asked[0]).toBe("/v1/transcripts/t1/download?format=srt");
  });

  it("returns a podcast feed's SRT as text and its Podcasting 2.0 JSON parsed", async () => {
    const { verbatim } = client();
    const srt = await verbatim.api.GET("/v1/public/{slug}/transcript.srt", { params: { path: { slug: "a-talk" } } });
    expect(srt.data).toBe(SRT);
    const json = await verbatim.api.GET("/v1/public/{slug}/transcript.json", { params: { path: { slug: "a-talk" } } });
    expect(json.data?.segments[0]?.body).toBe("Hello");
  });

  it("leaves other paths parsed as JSON, and an explicit parseAs as asked", async () => {
    const { verbatim } = client();
    expect((await verbatim.api.GET("/v1/me/api-key")).data).toEqual({ has_key: true, tier: "free" });
    const blob = await verbatim.api.GET("/v1/transcripts/{id}/download", {
      params: { path: { id: "t1" } },
      parseAs: "blob",
    });
    expect(blob.data).toBeInstanceOf(Blob);
    expect(await verbatim.download("t1", "srt")).toBe(SRT);
  });
});
