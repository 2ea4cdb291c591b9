import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { GET, POST, PUT } from "@/app/api/inngest/route";

// Without INNGEST_* settings jobs run on the local runner and the endpoint says so.
describe("/api/inngest without Inngest configured", () => {
  it.each([
    ["GET", GET],
    ["POST", POST],
    ["PUT", PUT],
  ])("%s answers 503 inngest_not_configured", async (method, handler) => {
    const response = await handler(new NextRequest("http://localhost/api/inngest", { method }), {});
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      code: "inngest_not_configured",
      detail: "Inngest is not configured on this server; jobs run on the local runner.",
    });
  });
});
