import { describe, expect, it } from "vitest";
import { withApi } from "@/lib/rest/with-api";
import { createTranscriptEndpoint, listTranscriptionsEndpoint } from "@/lib/transcripts/endpoints";
import { callRoute } from "@/test/request";

// The contract's TranscriptRequest and history query, through the real wrapper (auth "none" here so
// validation is reached without a database).
const transcript = withApi({ ...createTranscriptEndpoint, auth: "none" }, async ({ body }) => body);
const history = withApi({ ...listTranscriptionsEndpoint, auth: "none" }, async ({ query }) => query);

describe("TranscriptRequest", () => {
  it("applies the contract's defaults", async () => {
    const res = await callRoute(transcript, "/v1/transcript", { body: { url: "https://youtu.be/aaaaaaaaaaa" } });
    expect(res.json).toEqual({
      url: "https://youtu.be/aaaaaaaaaaa",
      upload: null,
      audio: null,
      lang: "en",
      format: "json",
    });
  });

  it("normalizes format aliases and language tags", async () => {
    const res = await callRoute(transcript, "/v1/transcript", {
      body: { url: "u", format: "Markdown", lang: "pt_BR" },
    });
    expect(res.json).toMatchObject({ format: "md", lang: "pt-BR" });
    expect((await callRoute(transcript, "/v1/transcript", { body: { url: "u", format: "txt" } })).json).toMatchObject({
      format: "text",
    });
  });

  it("needs exactly one of url, upload and audio (loc body)", async () => {
    for (const body of [
      {},
      { url: "" },
      { url: "  ", audio: null },
      { url: "a", upload: "b" },
      { upload: "b", audio: "c" },
    ]) {
      const res = await callRoute(transcript, "/v1/transcript", { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json).toEqual({
        detail: [
          {
            type: "value_error",
            loc: ["body"],
            msg: "Value error, exactly one of url, upload or audio must be given",
            input: body,
            ctx: { error: {} },
          },
        ],
      });
    }
  });

  it("takes lang auto and a vocabulary (trimmed, duplicates dropped)", async () => {
    const res = await callRoute(transcript, "/v1/transcript", {
      body: { url: "u", lang: "auto", vocabulary: [" Kubernetes ", "kubernetes", "PostgreSQL"] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ lang: "auto", vocabulary: ["Kubernetes", "PostgreSQL"] });
  });

  it("a bad vocabulary is a 422 naming the field: too many terms, a term too long, not a list", async () => {
    const many = await callRoute(transcript, "/v1/transcript", {
      body: { url: "u", vocabulary: Array.from({ length: 101 }, (_, i) => `t${i}`) },
    });
    expect(many.status).toBe(422);
    expect(many.json).toMatchObject({ detail: [{ loc: ["body", "vocabulary"] }] });
    const long = await callRoute(transcript, "/v1/transcript", { body: { url: "u", vocabulary: ["x".repeat(51)] } });
    expect(long.status).toBe(422);
    expect(long.json).toMatchObject({ detail: [{ loc: ["body", "vocabulary", 0] }] });
    const text = await callRoute(transcript, "/v1/transcript", { body: { url: "u", vocabulary: "Kubernetes" } });
    expect(text.status).toBe(422);
  });

  it("refuses an unknown format, a bad language and sources over 2048 characters", async () => {
    const format = await callRoute(transcript, "/v1/transcript", { body: { url: "u", format: "docx" } });
    expect(format.json).toMatchObject({ detail: [{ type: "value_error", loc: ["body", "format"], input: "docx" }] });
    const lang = await callRoute(transcript, "/v1/transcript", { body: { url: "u", lang: "english please" } });
    expect(lang.json).toMatchObject({ detail: [{ type: "string_pattern_mismatch", loc: ["body", "lang"] }] });
    for (const field of ["url", "upload", "audio"]) {
      const res = await callRoute(transcript, "/v1/transcript", { body: { [field]: "x".repeat(2049) } });
      expect(res.json, field).toMatchObject({
        detail: [{ type: "string_too_long", loc: ["body", field], ctx: { max_length: 2048 } }],
      });
    }
  });
});

describe("history query", () => {
  it("validates every parameter like the contract", async () => {
    const cases: [string, string, string][] = [
      ["limit=0", "limit", "greater_than_equal"],
      ["limit=101", "limit", "less_than_equal"],
      ["offset=-1", "offset", "greater_than_equal"],
      ["platform=myspace", "platform", "enum"],
      ["state=finished", "state", "enum"],
      ["sort=title", "sort", "enum"],
      ["order=random", "order", "enum"],
      ["limit=abc", "limit", "int_parsing"],
    ];
    for (const [qs, field, type] of cases) {
      const res = await callRoute(history, `/v1/me/transcriptions?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.json, qs).toMatchObject({ detail: [{ type, loc: ["query", field] }] });
    }
    const ok = await callRoute(
      history,
      "/v1/me/transcriptions?limit=100&offset=0&q=abc&platform=vimeo&state=done&sort=total_seconds&order=asc",
    );
    expect(ok.json).toEqual({
      limit: 100,
      offset: 0,
      q: "abc",
      platform: "vimeo",
      state: "done",
      sort: "total_seconds",
      order: "asc",
    });
  });
});
