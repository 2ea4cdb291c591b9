import { expect, inject, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { randomEmail } from "../emails";
import { FAKE_IDS } from "../fakes/youtube/ids";
import { recordSecrets } from "../secrets";
import { signIn } from "./http";

// The MCP endpoint in the built app: Next.js routes /mcp and the .well-known metadata (no page proxy, no
// buffering), the request guard answers other methods; then the SDK's client with an API key.

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
});

const baseURL = inject("appOrigin");

test("MCP: discovery without a credential, then every call with an API key", async () => {
  const mcpUrl = new URL("/mcp", baseURL);
  const post = (headers: Record<string, string> = {}) =>
    fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: initialize,
    });

  const anonymous = await post();
  expect(anonymous.status).toBe(401);
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(anonymous);
  expect(resourceMetadataUrl?.href).toBe(`${baseURL}/.well-known/oauth-protected-resource/mcp`);
  const metadata = await discoverOAuthProtectedResourceMetadata(mcpUrl, { resourceMetadataUrl });
  expect(metadata).toMatchObject({
    resource: `${baseURL}/mcp`,
    authorization_servers: [baseURL],
    bearer_methods_supported: ["header"],
  });
  // RFC 9728 3.3: a document at the root would have to describe the origin; there is none.
  const root = await fetch(`${baseURL}/.well-known/oauth-protected-resource`);
  expect(root.status).toBe(404);
  expect(await root.json()).toMatchObject({ code: "not_found" });
  // Not a page: the page proxy (CSP nonce, sign-in gate) does not run here.
  expect(root.headers.get("content-security-policy")).toBeNull();

  const put = await fetch(mcpUrl, { method: "PUT" });
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS, POST");

  const signedIn = await signIn(baseURL, randomEmail("mcp"));
  const ensured = await signedIn.post("/v1/me/api-key/ensure");
  const key = ((await ensured.json()) as { key: string }).key;
  await signedIn.dispose();
  recordSecrets(key);
  expect(key).toMatch(/^vbt_/);

  expect((await post({ authorization: `Bearer ${key}`, origin: "https://evil.example" })).status).toBe(403);

  const client = new Client({ name: "verbatim-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("get_transcript");
    const result = (await client.callTool({
      name: "get_transcript",
      arguments: { url: `https://youtu.be/${FAKE_IDS.captioned}` },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(text).toMatch(/\n\[00:00:\d\d\] \[MUSIC\]\n/);
    const usage = (await client.callTool({ name: "get_usage", arguments: {} })) as CallToolResult;
    expect((usage.structuredContent as { used_seconds: number }).used_seconds).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
});
