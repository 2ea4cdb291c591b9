import { describe, expect, it } from "vitest";
import { codeChallenge, randomToken } from "./pkce";

describe("PKCE", () => {
  it("makes the S256 challenge of RFC 7636's example verifier", async () => {
    expect(await codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("draws 43-character verifiers", () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
  });
});
