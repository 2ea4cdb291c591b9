import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, callRoute } from "@/test/request";
import { createUser, useTestDatabase } from "@/test/app-db";
import { seedTranscript } from "@/test/publishing";

// What a browser player on another site needs, through the route handlers: every public file and
// GET /v1/public/{slug} answer a preflight with what may be asked, and their answers let a script read the
// ETag (to revalidate) and the language.

type Handler = Parameters<typeof callRoute>[0];
const PATHS = ["", "/transcript.vtt", "/transcript.srt", "/transcript.json", "/transcript.html", "/download"];

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let routes: Record<string, { GET: Handler; OPTIONS: Handler }>;
let publishRoute: Handler;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  routes = {
    "": await import("@/app/v1/public/[slug]/route"),
    "/transcript.vtt": await import("@/app/v1/public/[slug]/transcript.vtt/route"),
    "/transcript.srt": await import("@/app/v1/public/[slug]/transcript.srt/route"),
    "/transcript.json": await import("@/app/v1/public/[slug]/transcript.json/route"),
    "/transcript.html": await import("@/app/v1/public/[slug]/transcript.html/route"),
    "/download": await import("@/app/v1/public/[slug]/download/route"),
  } as unknown as typeof routes;
  publishRoute = (await import("@/app/v1/publish/route")).POST;
});
afterAll(async () => ctx?.teardown());

async function publishedSlug(): Promise<string> {
  const user = await createUser(ctx.db);
  const { ensureApiKey } = await import("@/lib/auth/api-keys");
  const { key } = await ensureApiKey(user.id);
  const videoId = `cors${Math.random().toString(36).slice(2, 9)}`.slice(0, 11);
  await seedTranscript(ctx.db, user.id, { videoId });
  const res = await callRoute(publishRoute, "/v1/publish", {
    headers: bearer(key!),
    body: { url: `https://www.youtube.com/watch?v=${videoId}` },
  });
  expect(res.status).toBe(200);
  return (res.json as { slug: string }).slug;
}

const list = (value: string | null) => (value ?? "").split(",").map((v) => v.trim().toLowerCase());

describe("CORS on the public transcript and its files", () => {
  it.each(PATHS)("OPTIONS /v1/public/{slug}%s: 204 with the origin, methods, headers and max-age", async (suffix) => {
    const slug = await publishedSlug();
    const res = await callRoute(routes[suffix]!.OPTIONS, `/v1/public/${slug}${suffix}`, {
      method: "OPTIONS",
      headers: {
        origin: "https://player.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "range,if-none-match",
      },
      params: { slug },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(list(res.headers.get("access-control-allow-methods"))).toEqual(
      expect.arrayContaining(["get", "head", "options"]),
    );
    expect(list(res.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining(["range", "if-none-match", "if-modified-since"]),
    );
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it.each(PATHS)("GET /v1/public/{slug}%s exposes ETag and Content-Language, on 200, 304 and 404", async (suffix) => {
    const slug = await publishedSlug();
    const query = suffix === "/download" ? "?format=vtt" : "";
    const get = (s: string, headers: Record<string, string> = {}) =>
      callRoute(routes[suffix]!.GET, `/v1/public/${s}${suffix}${query}`, {
        headers: { origin: "https://player.example", ...headers },
        params: { slug: s },
      });
    const ok = await get(slug);
    expect(ok.status).toBe(200);
    for (const res of [
      ok,
      await get(slug, { "if-none-match": ok.headers.get("etag") ?? "" }),
      await get("no-such-slug-zz9"),
    ]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(list(res.headers.get("access-control-expose-headers"))).toEqual(
        expect.arrayContaining(["etag", "content-language"]),
      );
    }
    if (ok.headers.get("etag"))
      expect((await get(slug, { "if-none-match": ok.headers.get("etag")! })).status).toBe(304);
  });
});
