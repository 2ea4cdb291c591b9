import { describe, expect, it } from "vitest";
import { pagePath } from "@/lib/oauth/sign-in-gate";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

describe("the consent and device pages' return path through sign-in", () => {
  it("survives safe-redirect.ts with redirect URIs and resources in the query", () => {
    const path = pagePath("/oauth/authorize", {
      response_type: "code",
      client_id: "vci_abc",
      redirect_uri: "http://127.0.0.1:8976/callback?x=1&y=2",
      resource: "https://verbatim.example/mcp",
      state: "a b+c/d",
    });
    expect(safeCallbackPath(path, "/fallback", "http://localhost:3000")).toBe(path);
    const back = new URL(path, "http://localhost:3000").searchParams;
    expect(back.get("redirect_uri")).toBe("http://127.0.0.1:8976/callback?x=1&y=2");
    expect(back.get("state")).toBe("a b+c/d");
    expect(back.get("resource")).toBe("https://verbatim.example/mcp");
  });

  it("keeps the device code", () => {
    expect(
      safeCallbackPath(pagePath("/device", { user_code: "BCDF-GHJK" }), "/fallback", "http://localhost:3000"),
    ).toBe("/device?user_code=BCDF-GHJK");
    expect(pagePath("/device", {})).toBe("/device");
  });
});
