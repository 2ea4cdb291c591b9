import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";

describe("POST /v1/webhooks/assemblyai", () => {
  it("needs the header derived from the auth secret, then wakes nothing it does not know", async () => {
    process.env.AUTH_SECRET = "webhook-test-secret-webhook-test-secret";
    const { POST } = await import("@/app/v1/webhooks/assemblyai/route");
    const body = { transcript_id: "5551722-f677-48a6-a2a6-2f3b4d2e7b11", status: "completed" };
    expect((await callRoute(POST, "/v1/webhooks/assemblyai", { body })).status).toBe(403);
    expect(
      (await callRoute(POST, "/v1/webhooks/assemblyai", { body, headers: { "x-verbatim-webhook": "guess" } })).status,
    ).toBe(403);
    const token = createHmac("sha256", process.env.AUTH_SECRET).update("assemblyai-webhook").digest("base64url");
    const ok = await callRoute(POST, "/v1/webhooks/assemblyai", { body, headers: { "x-verbatim-webhook": token } });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ received: true });
    const junk = await callRoute(POST, "/v1/webhooks/assemblyai", {
      body: { hello: 1 },
      headers: { "x-verbatim-webhook": token },
    });
    expect(junk.json).toEqual({ received: false });
  });
});
