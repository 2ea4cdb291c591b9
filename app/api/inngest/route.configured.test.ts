import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";

// With Inngest on (here the dev-server mode, so no signing key is needed), the endpoint is the SDK's
// serve handler: GET answers the introspection with this app's functions. Nothing is sent anywhere.
// A guard against a hang: the route's first import loads every pipeline's modules (beside the other suites under
// `nice` that took 28 s).
describe("/api/inngest with Inngest configured", { timeout: 180_000 }, () => {
  const saved = process.env.INNGEST_DEV;
  beforeAll(() => {
    process.env.INNGEST_DEV = "1";
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.INNGEST_DEV;
    else process.env.INNGEST_DEV = saved;
  });

  it("serves the run-pipeline function", async () => {
    const { GET } = await import("@/app/api/inngest/route");
    const response = await GET(new NextRequest("http://localhost/api/inngest"), {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { function_count?: number; mode?: string };
    expect(body).toMatchObject({ function_count: 2, mode: "dev" });
  });
});
