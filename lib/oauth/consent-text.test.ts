import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "@/lib/http/permissions";
import { CONNECTOR_CAN, connectorCannot } from "@/lib/oauth/consent-text";

describe("the consent page's text", () => {
  it("names, as things a connector cannot do, every row of the permission table that refuses its token", () => {
    const refused = Object.entries(PERMISSIONS).filter(
      ([row, kinds]) => row !== "mcp" && !(kinds as readonly string[]).includes("oauth_app"),
    );
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(connectorCannot()).toHaveLength(refused.length);
    expect(connectorCannot().join(" ")).toMatch(/API key/);
    expect(connectorCannot().join(" ")).toMatch(/sign you out/);
    expect(connectorCannot().join(" ")).toMatch(/paid plan/);
  });

  it("says a connector can delete history and spend the allowance (what the `use` row allows)", () => {
    expect(PERMISSIONS.use).toContain("oauth_app");
    expect(CONNECTOR_CAN.join(" ")).toMatch(/delete/);
    expect(CONNECTOR_CAN.join(" ")).toMatch(/allowance/);
  });
});
