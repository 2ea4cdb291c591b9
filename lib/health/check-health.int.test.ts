import { describe, expect, it } from "vitest";

describe("/health", () => {
  it("answers 200 degraded, strings only, when the database is down", async () => {
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/verbatim_nowhere";
    process.env.AUTH_SECRET ??= "integration-tests-secret-integration-tests";
    delete (globalThis as { verbatimDb?: unknown }).verbatimDb;
    const { GET } = await import("@/app/health/route");
    const { callRoute } = await import("@/test/request");
    const original = console.error;
    console.error = () => {};
    try {
      const res = await callRoute(GET, "/health");
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ status: "degraded", database: "down" });
      for (const value of Object.values(res.json as Record<string, unknown>)) expect(typeof value).toBe("string");
    } finally {
      console.error = original;
    }
  });
});
