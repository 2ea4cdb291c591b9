import { describe, expect, it } from "vitest";

// Without METRICS_TOKEN the endpoint does not exist, whatever the caller sends (no database needed).
delete process.env.METRICS_TOKEN;

describe("/metrics without METRICS_TOKEN", () => {
  it("answers 404, with or without a bearer", async () => {
    const { GET } = await import("@/app/metrics/route");
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Bearer " },
      { authorization: "Bearer anything-at-all-here" },
    ];
    for (const headers of cases) {
      const res = await GET(new Request("http://localhost:3000/metrics", { headers }));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Not found.", code: "not_found" });
    }
  });
});
