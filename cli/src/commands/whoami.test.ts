import { describe, expect, it } from "vitest";
import type { Schemas } from "../api";
import { whoamiText } from "./whoami";

const me: Schemas["Me"] = { id: "u1", email: "ada@example.test", name: "ada", via: "api_key" } as Schemas["Me"];

function usage(fields: Partial<Schemas["SubscriptionResponse"]>): Schemas["SubscriptionResponse"] {
  return {
    tier: "free",
    used_seconds: 243,
    limit_seconds: 900,
    unlimited: false,
    current_period_end: null,
    pending_tier: null,
    pending_change_at: null,
    ...fields,
  } as Schemas["SubscriptionResponse"];
}

describe("whoami's lines", () => {
  it("on a server without limits names no plan: only that there is no limit", () => {
    const text = whoamiText({
      baseUrl: "http://127.0.0.1:3000",
      me,
      usage: usage({ unlimited: true, limit_seconds: 2_147_483_647 }),
      credential: "api_key",
    });
    expect(text).toBe(
      [
        "Logged in to http://127.0.0.1:3000 as ada@example.test (VERBATIM_API_KEY)",
        "Usage: No limit on this server: 4 min 3 s transcribed this period.",
      ].join("\n"),
    );
    expect(text).not.toMatch(/Tier|free/i);
  });

  it("with a limit, the tier and any change to come", () => {
    expect(whoamiText({ baseUrl: "http://h", me, usage: usage({}), credential: "login" })).toBe(
      [
        "Logged in to http://h as ada@example.test (device login)",
        "Tier: free",
        "Usage: Free plan: 4 min 3 s of 15 min used, 10 min 57 s left.",
      ].join("\n"),
    );
    const pro = usage({
      tier: "pro",
      limit_seconds: 36_000,
      pending_tier: "free",
      pending_change_at: "2026-12-01T00:00:00Z",
    });
    expect(whoamiText({ baseUrl: "http://h", me, usage: pro, credential: "login" })).toContain(
      "Tier: pro (changes to free on 2026-12-01)",
    );
  });
});
