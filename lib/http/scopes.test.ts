import { describe, expect, it } from "vitest";
import { NO_KEY, requiredScope, scopeMeets, scopeRefusalDetail } from "@/lib/http/permissions";

// The scope column of the permission table, written out for the operations it was made for, so a change of the
// derivation that moves one fails here (every operation is walked against the table in roles.int.test.ts).

describe("the scope a team's named key needs", () => {
  it.each([
    ["GET", "/v1/me/transcriptions", "use", "read"],
    ["GET", "/v1/search", "use", "read"],
    ["POST", "/v1/transcript", "use", "transcribe"],
    ["PATCH", "/v1/transcripts/{id}", "use", "transcribe"],
    ["POST", "/v1/publish", "use", "publish"],
    ["DELETE", "/v1/publish/{slug}", "use", "publish"],
    ["POST", "/v1/me/webhooks", "webhooks", "manage"],
    ["POST", "/v1/follows", "use", "manage"],
    ["POST", "/v1/me/api-key/regenerate", "api_keys", NO_KEY],
    ["POST", "/v1/checkout", "billing", NO_KEY],
    ["POST", "/v1/teams/{team_id}/keys", "teams", NO_KEY],
    ["POST", "/v1/me/sessions/revoke", "sessions", NO_KEY],
    ["GET", "/health", "none", null],
  ] as const)("%s %s (%s): %s", (method, path, auth, scope) => {
    expect(requiredScope(method, path, auth)).toBe(scope);
  });

  it("is met only by a key that holds it; no scope meets what no key may do", () => {
    expect(scopeMeets("read", ["read"])).toBe(true);
    expect(scopeMeets("transcribe", ["read"])).toBe(false);
    expect(scopeMeets(NO_KEY, ["read", "transcribe", "publish", "manage"])).toBe(false);
    expect(scopeMeets(null, [])).toBe(true);
    expect(scopeRefusalDetail("transcribe", ["read"])).toBe(
      "This operation needs a key with the 'transcribe' scope; this key has 'read'.",
    );
  });
});
