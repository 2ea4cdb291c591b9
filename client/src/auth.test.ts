import { describe, expect, it } from "vitest";
import { createVerbatimClient, type CredentialSource } from "./index";

// bearerAuth (the credential middleware the CLI plugs its refreshed login into), against a fetch that
// records what it was sent and answers 401 to an expired token.

function server(valid: () => string) {
  const seen: { authorization: string | null; body: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const authorization = request.headers.get("authorization");
    seen.push({ authorization, body: await request.text() });
    if (authorization !== `Bearer ${valid()}`)
      return Response.json({ detail: "Invalid token", code: "invalid_token" }, { status: 401 });
    return Response.json({ detail: "nothing here", code: "not_found" }, { status: 404 });
  };
  return { seen, fetch: fetch as typeof globalThis.fetch };
}

describe("bearerAuth", () => {
  it("after a 401 refreshes once and sends the same request again with the new token", async () => {
    let token = "old";
    let refreshes = 0;
    const api = server(() => "new");
    const credential: CredentialSource = {
      token: () => token,
      refresh: async (rejected) => {
        expect(rejected).toBe("old");
        refreshes++;
        token = "new";
        return true;
      },
    };
    const client = createVerbatimClient({
      baseUrl: "https://api.example/",
      fetch: api.fetch,
      credential,
      headers: { "user-agent": "test/1" },
    });
    const { response } = await client.api.POST("/v1/publish", { body: { url: "https://youtu.be/x", lang: "en" } });
    expect(response.status).toBe(404);
    expect(refreshes).toBe(1);
    expect(api.seen.map((s) => s.authorization)).toEqual(["Bearer old", "Bearer new"]);
    expect(JSON.parse(api.seen[1]!.body)).toEqual({ url: "https://youtu.be/x", lang: "en" });
  });

  it("answers the 401 when the credential cannot be refreshed, and sends no header without a token", async () => {
    const api = server(() => "valid");
    const refused = createVerbatimClient({
      baseUrl: "https://api.example",
      fetch: api.fetch,
      credential: { token: () => "stale", refresh: async () => false },
    });
    expect((await refused.api.GET("/v1/me")).error).toMatchObject({ code: "invalid_token" });
    const anonymous = createVerbatimClient({
      baseUrl: "https://api.example",
      fetch: api.fetch,
      credential: { token: () => null },
    });
    await anonymous.api.GET("/v1/me");
    expect(api.seen.map((s) => s.authorization)).toEqual(["Bearer stale", null]);
  });

  it("a token() that throws refuses the call before anything is sent", async () => {
    const api = server(() => "valid");
    const client = createVerbatimClient({
      baseUrl: "https://api.example",
      fetch: api.fetch,
      credential: { token: () => Promise.reject(new Error("not logged in")) },
    });
    await expect(client.api.GET("/v1/me")).rejects.toThrow("not logged in");
    expect(api.seen).toEqual([]);
  });
});
