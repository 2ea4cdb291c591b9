import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

// The MCP SDK client's side of the OAuth dance, for tests against /mcp once the authorization server
// (/.well-known/oauth-authorization-server, /oauth/register, the consent page, /oauth/token) is in the app:
//
//   const { client, provider } = await connectWithOAuth(mcpUrl, async (authorizationUrl) => {
//     // approve as a signed-in user (the consent page in a browser, or POST /v1/oauth/authorize with a
//     // session), follow the redirect to REDIRECT_URI and return its `code`
//   });
//
// The SDK does everything else the way a connector does: 401 → resource metadata → authorization server
// metadata → dynamic registration → PKCE S256 with `resource` = the MCP URL → token exchange → retry.

export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

/** Keeps what the SDK asks it to keep, in memory; records where it was sent to authorize. */
export class InMemoryOAuthProvider implements OAuthClientProvider {
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = "";
  authorizationUrl?: URL;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP SDK test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Connects to /mcp with no credential, lets the SDK run the OAuth dance, and connects again with the token. */
export async function connectWithOAuth(mcpUrl: URL, approve: (authorizationUrl: URL) => Promise<string>) {
  const provider = new InMemoryOAuthProvider();
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  const probe = new Client({ name: "verbatim-oauth-test", version: "1.0.0" });
  await probe.connect(first).then(
    () => {
      throw new Error("/mcp accepted a connection without a credential");
    },
    (error: unknown) => {
      if (!(error instanceof UnauthorizedError)) throw error;
    },
  );
  if (!provider.authorizationUrl) throw new Error("the SDK did not reach the authorization step");
  await first.finishAuth(await approve(provider.authorizationUrl));
  const client = new Client({ name: "verbatim-oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider };
}
