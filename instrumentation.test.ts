import { afterEach, describe, expect, it, vi } from "vitest";

describe("the server's start (instrumentation.ts)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("stops, naming the variable, on a YOUTUBE_CLIENTS or OIDC_TEAM_ROLES its domain cannot read", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("YOUTUBE_CLIENTS", "visionos,NOKIA");
    vi.stubEnv("OIDC_TEAM_ROLES", "acme:chief=verbatim-admins");
    const { register } = await import("@/instrumentation");
    await expect(register()).rejects.toThrow(
      /^Invalid configuration:\n {2}YOUTUBE_CLIENTS: unknown InnerTube client "NOKIA" .*\n {2}OIDC_TEAM_ROLES: "chief" is not a role/,
    );
  });
});
