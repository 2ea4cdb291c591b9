// The OpenAI-compatible embedder against a fake that follows the published API (POST /v1/embeddings: model and
// input in, data[].embedding with its index out, 401 without the key).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosine } from "./embed";
import { embedRemote, REMOTE_BATCH } from "./openai-compatible";

let server: Server;
let baseUrl: string;
const requests: { model: string; input: string[]; auth: string | undefined }[] = [];

/** A made-up embedding of 3 dimensions: how often the text says "cat", "rocket" and anything else. */
const fakeEmbedding = (text: string) => {
  const words = text.toLowerCase().split(/\W+/).filter(Boolean);
  const count = (w: string) => words.filter((x) => x === w).length;
  return [count("cat") * 2, count("rocket") * 2, words.length - count("cat") - count("rocket") + 0.1];
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") return void res.writeHead(404).end();
      if (req.headers.authorization !== "Bearer sk-test")
        return void res
          .writeHead(401, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }));
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      requests.push({ model, input, auth: req.headers.authorization });
      // Answered out of order: the index says which input each is.
      const data = input
        .map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) }))
        .reverse();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("an OpenAI-compatible /v1/embeddings server", () => {
  it("embeds texts in batches, each its own unit vector by the answer's index, nothing sent for an empty text", async () => {
    requests.length = 0;
    const texts = ["the cat sat", "", ...Array.from({ length: REMOTE_BATCH }, (_, i) => `a rocket ${i}`)];
    const vectors = await embedRemote({ baseUrl, apiKey: "sk-test", model: "nomic-embed-text" }, texts);
    // 66 texts: the first 64 less the empty one, then 2.
    expect(requests.map((r) => r.input.length)).toEqual([REMOTE_BATCH - 1, 2]);
    expect(requests.every((r) => r.model === "nomic-embed-text")).toBe(true);
    expect(requests[0]!.input).not.toContain("");
    expect(vectors[1]).toBeNull();
    expect(cosine(vectors[0]!, vectors[0]!)).toBeCloseTo(1, 5);
    expect(cosine(vectors[0]!, [1, 0, 0])).toBeGreaterThan(cosine(vectors[2]!, [1, 0, 0]));
    expect(cosine(vectors[2]!, [0, 1, 0])).toBeGreaterThan(cosine(vectors[0]!, [0, 1, 0]));
  });

  it("takes the base URL with or without /v1, and says why when the server refuses", async () => {
    const bare = baseUrl.replace(/\/v1$/, "");
    expect((await embedRemote({ baseUrl: bare, apiKey: "sk-test", model: "m" }, ["cat"]))[0]).not.toBeNull();
    await expect(embedRemote({ baseUrl, model: "m" }, ["cat"])).rejects.toThrow(/answered 401: .*Incorrect API key/);
    await expect(
      embedRemote({ baseUrl: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2_000 }, ["cat"]),
    ).rejects.toThrow(/unreachable/);
  });
});
