import { describe, expect, it } from "vitest";
import { matchRedirectUri, redirectUriProblem } from "@/lib/oauth/redirect-uri";
import { formatUserCode, generateUserCode, normalizeUserCode, USER_CODE_ALPHABET } from "@/lib/oauth/user-code";

describe("redirect URIs", () => {
  it.each([
    "https://claude.ai/api/mcp/auth_callback",
    "http://127.0.0.1/cb",
    "http://[::1]:33418/",
    "http://localhost:8080/callback",
    "com.example.app:/oauth2redirect",
  ])("registers %s", (uri) => expect(redirectUriProblem(uri)).toBeNull());

  it.each([
    "http://example.com/cb",
    "https://example.com/cb#x",
    "javascript:alert(1)",
    "data:text/html,x",
    "myapp:/cb",
    "/relative",
    "https://user:pw@example.com/cb",
    "https://exa mple.com/cb",
    "file:///etc/passwd",
    "https:///cb",
    "https:evil.example/cb",
    "https:/evil.example/cb",
    "https://Evil.example/cb",
    "https://app.example",
    "https://app.example:443/cb",
    "http://127.0.0.1:80/cb",
    "https://app.example/a/../cb",
  ])("refuses %s", (uri) => expect(redirectUriProblem(uri)).toEqual(expect.any(String)));

  const registered = ["https://app.example/cb", "http://127.0.0.1:8976/callback", "http://localhost/cb?x=1"];
  it.each([
    ["https://app.example/cb", true],
    ["https://app.example/cb/", false],
    ["https://app.example/cb/extra", false],
    ["https://app.example/cb?x=1", false],
    ["https://APP.example/cb", false],
    ["https://app.example:443/cb", false],
    ["http://127.0.0.1:51000/callback", true],
    ["http://127.0.0.1/callback", true],
    ["http://127.0.0.1:51000/callback/extra", false],
    ["http://127.0.0.1:51000/callback/../callback", false],
    ["http://127.0.0.1:51000/callback?x=1", false],
    ["http://127.0.0.1:51000/callback#f", false],
    ["http://[::1]:51000/callback", false],
    ["http://localhost:9/cb?x=1", true],
    ["http://user@127.0.0.1:51000/callback", false],
    ["https:app.example/cb", false],
    ["https:/app.example/cb", false],
  ])("matches %s: %s", (uri, ok) => expect(matchRedirectUri(uri, registered) !== null).toBe(ok));

  it("never matches a non-canonical spelling, even one stored as typed before registration refused them", () => {
    expect(matchRedirectUri("https:evil.example/cb", ["https:evil.example/cb"])).toBeNull();
    expect(matchRedirectUri("https:///cb", ["https:///cb"])).toBeNull();
  });
});

describe("user codes", () => {
  it("draws 8 letters from the RFC 8628 consonants and shows them as XXXX-XXXX", () => {
    for (let i = 0; i < 200; i++) {
      const code = generateUserCode();
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
      expect(formatUserCode(code)).toBe(`${code.slice(0, 4)}-${code.slice(4)}`);
    }
  });

  it("normalizes case, dashes and spaces and refuses anything else", () => {
    expect(normalizeUserCode(" bcdf-ghjk ")).toBe("BCDFGHJK");
    expect(normalizeUserCode("BCDF GHJK")).toBe("BCDFGHJK");
    expect(normalizeUserCode("bcdf–ghjk")).toBe("BCDFGHJK");
    expect(normalizeUserCode("BCDF-GHJ")).toBeNull();
    expect(normalizeUserCode("BCDF-GHJA")).toBeNull();
    expect(normalizeUserCode("BCDF-GHJ1")).toBeNull();
  });
});
