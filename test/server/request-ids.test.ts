import http from "node:http";
import { afterEach, beforeEach, expect, inject, test } from "vitest";
import { anonymous, type APIRequestContext } from "./http";

// Every answer of the built app carries X-Request-Id: API routes, pages, redirects, unknown paths and the
// request guard's own answers; a well-formed id from the client comes back unchanged, anything else is replaced.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const baseURL = inject("appOrigin");
let request: APIRequestContext;
beforeEach(async () => {
  request = await anonymous(baseURL);
});
afterEach(() => request.dispose());

test("every answer carries a request id: the client's when well-formed, else a fresh one", async () => {
  const answers = [
    ["GET", "/health"],
    ["GET", "/"],
    ["GET", "/dashboard"],
    ["GET", "/no-such-page"],
    ["GET", "/v1/no-such-operation"],
    ["GET", "/v1/me/api-key"],
    ["DELETE", "/health"],
  ] as const;
  const seen = new Set<string>();
  for (const [method, path] of answers) {
    const response = await request.fetch(path, { method, maxRedirects: 0, failOnStatusCode: false });
    const id = response.headers()["x-request-id"] ?? "";
    expect(id, `${method} ${path} (${response.status()})`).toMatch(UUID);
    seen.add(id);
  }
  expect(seen.size).toBe(answers.length);

  const chosen = `e2e.${Date.now()}_ok-1`;
  for (const path of ["/health", "/", "/v1/me/api-key"]) {
    const echoed = await request.get(path, {
      headers: { "x-request-id": chosen },
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    expect(echoed.headers()["x-request-id"], path).toBe(chosen);
  }
  for (const hostile of ["a".repeat(129), "has space", 'quote"d', "<script>"]) {
    const replaced = await request.get("/health", { headers: { "x-request-id": hostile } });
    expect(replaced.headers()["x-request-id"]).toMatch(UUID);
  }

  // The guard answers methods Next.js cannot represent itself (TRACE), with an id too.
  const trace = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http
      .request(`${baseURL}/health`, { method: "TRACE" }, (res) => resolve(res.resume()))
      .on("error", reject)
      .end();
  });
  expect(trace.statusCode).toBe(405);
  expect(trace.headers["x-request-id"]).toMatch(UUID);
});
