import { describe, expect, it } from "vitest";
import { originAllowed, protectedResourceMetadata, resourceMetadataUrl, wwwAuthenticate } from "@/lib/mcp/metadata";
import { mcpResource as mcpResourceUrl } from "@/lib/oauth/config";

describe("the MCP endpoint as a protected resource", () => {
  it("its resource is the exact MCP URL; the metadata sits at the well-known prefix plus the resource's path (RFC 9728 3.1)", () => {
    expect(mcpResourceUrl("https://verbatim.example/")).toBe("https://verbatim.example/mcp");
    expect(resourceMetadataUrl("https://verbatim.example")).toBe(
      "https://verbatim.example/.well-known/oauth-protected-resource/mcp",
    );
    // An app below a path: the well-known part goes between the origin and the path.
    expect(mcpResourceUrl("https://example.org/verbatim/")).toBe("https://example.org/verbatim/mcp");
    expect(resourceMetadataUrl("https://example.org/verbatim/")).toBe(
      "https://example.org/.well-known/oauth-protected-resource/verbatim/mcp",
    );
  });

  it("names this app as the authorization server, the scope and header bearer tokens", () => {
    expect(protectedResourceMetadata("https://verbatim.example/")).toMatchObject({
      resource: "https://verbatim.example/mcp",
      authorization_servers: ["https://verbatim.example"],
      scopes_supported: ["api"],
      bearer_methods_supported: ["header"],
    });
  });

  it("the challenge points at the metadata, and says invalid_token when a token was refused", () => {
    expect(wwwAuthenticate(undefined, "https://v.example")).toBe(
      'Bearer resource_metadata="https://v.example/.well-known/oauth-protected-resource/mcp", scope="api"',
    );
    expect(wwwAuthenticate("invalid_token", "https://v.example")).toMatch(/, error="invalid_token"$/);
  });

  it("Origin: none (programs) and the app's own pass; other sites, look-alikes, null and garbage do not", () => {
    const app = "https://verbatim.example";
    expect(originAllowed(null, app)).toBe(true);
    expect(originAllowed("https://verbatim.example", app)).toBe(true);
    expect(originAllowed("https://VERBATIM.example:443", app)).toBe(true);
    for (const origin of [
      "https://evil.example",
      "http://verbatim.example",
      "https://verbatim.example.evil.example",
      "https://verbatim.example:8443",
      "null",
      "",
      "not a url",
    ]) {
      expect(originAllowed(origin, app), origin).toBe(false);
    }
  });
});
