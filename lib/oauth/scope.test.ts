import { describe, expect, it } from "vitest";
import { grantedScope } from "@/lib/oauth/config";
import { isAllowed, PERMISSIONS } from "@/lib/http/permissions";

describe("the scopes a request may ask for", () => {
  it("defaults to api and normalizes repeats", () => {
    expect(grantedScope(undefined)).toBe("api");
    expect(grantedScope("  ")).toBe("api");
    expect(grantedScope("api api")).toBe("api");
  });

  it("grants the extension scope only alone", () => {
    expect(grantedScope("extension")).toBe("extension");
    expect(grantedScope("extension extension")).toBe("extension");
    expect(grantedScope("api extension")).toBeNull();
    expect(grantedScope("extension admin")).toBeNull();
    expect(grantedScope("keys")).toBeNull();
  });
});

describe("the extension's credential kind", () => {
  it("may use the service and nothing of the account's administration, nor the MCP endpoint", () => {
    expect(isAllowed("use", "extension")).toBe(true);
    expect(isAllowed("mcp", "extension")).toBe(false);
    for (const row of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) {
      if (row === "use") continue;
      expect(isAllowed(row, "extension"), row).toBe(false);
    }
  });
});
