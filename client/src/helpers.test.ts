import { describe, expect, it } from "vitest";
import { createVerbatimClient, VerbatimError } from "./index";

// The helpers against a fake fetch that answers as the API does: what each sends, and what it gives back.

function fakeServer(answer: (request: Request) => Response | Promise<Response>) {
  const seen: { method: string; url: string; contentType: string | null; body: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    seen.push({
      method: request.method,
      url: request.url,
      contentType: request.headers.get("content-type"),
      body: await request.clone().text(),
    });
    return answer(request);
  };
  return { seen, client: createVerbatimClient({ baseUrl: "https://api.example.test", apiKey: "vbt_x", fetch }) };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("client helpers", () => {
  it("download answers the file's text, not JSON", async () => {
    const srt = "1\n00:00:00,000 --> 00:00:01,000\nHello\n";
    const { client, seen } = fakeServer(
      () => new Response(srt, { headers: { "content-type": "application/x-subrip; charset=utf-8" } }),
    );
    expect(await client.download("t_1", "srt")).toBe(srt);
    expect(seen[0].url).toBe("https://api.example.test/v1/transcripts/t_1/download?format=srt");
  });

  it("upload signs, then PUTs the bytes with the signed Content-Type", async () => {
    const signed = {
      object_path: "uploads/u/r/a.mp3",
      source_url: "upload:uploads/u/r/a.mp3",
      upload_url: "https://store.example.test/put",
    };
    const { client, seen } = fakeServer((request) =>
      request.url.endsWith("/v1/uploads/sign") ? json(200, signed) : new Response(null, { status: 201 }),
    );
    expect(await client.upload(new Blob(["ID3"]), { filename: "a.mp3", contentType: "audio/mpeg" })).toEqual(signed);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST https://api.example.test/v1/uploads/sign",
      "PUT https://store.example.test/put",
    ]);
    expect(JSON.parse(seen[0].body)).toEqual({ filename: "a.mp3", content_type: "audio/mpeg" });
    expect(seen[1]).toMatchObject({ contentType: "audio/mpeg", body: "ID3" });
  });

  it("webhooks: list, create, delete; an error is a VerbatimError with the API's code", async () => {
    const endpoint = { id: "we_1", url: "https://hooks.example.test/", event_types: ["transcript.completed"] };
    const { client, seen } = fakeServer((request) => {
      if (request.method === "GET") return json(200, { endpoints: [endpoint] });
      if (request.method === "DELETE") return new Response(null, { status: 204 });
      return json(409, { detail: "Too many endpoints.", code: "too_many_webhooks" });
    });
    expect(await client.webhooks.list()).toEqual([endpoint]);
    await client.webhooks.delete("we_1");
    const failure = await client.webhooks
      .create("https://hooks.example.test/", ["transcript.completed"])
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VerbatimError);
    expect(failure).toMatchObject({ code: "too_many_webhooks", status: 409, retryable: false });
    expect(seen.map((s) => s.method)).toEqual(["GET", "DELETE", "POST"]);
  });

  it("a request that gets no answer is a retryable VerbatimError('network_error')", async () => {
    const { client } = fakeServer(() => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    });
    const failure = await client.transcribe("https://example.test/a.mp3", { source: "audio" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VerbatimError);
    expect(failure).toMatchObject({ code: "network_error", status: null, retryable: true });
    expect((failure as Error).message).toContain("ECONNREFUSED");
  });
});
