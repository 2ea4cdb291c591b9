import { describe, expect, it } from "vitest";

// Without METRICS_TOKEN the endpoint does not exist, whatever the caller sends (no database needed).
delete process.env.METRICS_TOKEN;

describe("/metrics without METRICS_TOKEN", () => {
  it("answers 404, with or without a bearer", async () => {
    const { GET } = await import("@/app/metrics/route");
    for (const headers of [{}, { authorization: "Bearer " }, { authorization: "Bearer anything-at-all-here" }]) {
      const res = await GET(new Request("http://localhost:3000/metrics", { headers }));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found.", code: "not_found" });
    }
  });
});
