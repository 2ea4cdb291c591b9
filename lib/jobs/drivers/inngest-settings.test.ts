import { describe, expect, it } from "vitest";
import { parseInngestSettings } from "@/lib/jobs/drivers/inngest-settings";

describe("Inngest settings", () => {
  it("is off without an event key or INNGEST_DEV", () => {
    expect(parseInngestSettings({}).configured).toBe(false);
    expect(parseInngestSettings({ INNGEST_DEV: "0", INNGEST_SIGNING_KEY: "signkey-prod-1" }).configured).toBe(false);
    expect(parseInngestSettings({ INNGEST_EVENT_KEY: "  " }).configured).toBe(false);
  });

  it("is on with an event key (cloud or self-hosted) or the dev server", () => {
    expect(parseInngestSettings({ INNGEST_EVENT_KEY: "k", INNGEST_BASE_URL: "http://inngest:8288" })).toEqual({
      configured: true,
      eventKey: "k",
      baseUrl: "http://inngest:8288",
      signingKey: undefined,
      dev: undefined,
    });
    expect(parseInngestSettings({ INNGEST_DEV: "1" })).toMatchObject({ configured: true, dev: "1" });
    expect(parseInngestSettings({ INNGEST_DEV: "http://localhost:8288" })).toMatchObject({
      configured: true,
      dev: "http://localhost:8288",
    });
  });
});
