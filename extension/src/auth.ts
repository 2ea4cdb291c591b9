// Sign in to the person's own Verbatim through its OAuth authorization server: a public client registered once
// (RFC 7591) with the browser's extension redirect address, the authorization code flow with PKCE (S256) for the
// `extension` scope, and the grant revoked on sign-out (RFC 7009).
import { browserApi } from "./browser-api";
import { ApiError, errorOf, sessionFromTokens, tokenRequest } from "./api";
import { codeChallenge, randomToken } from "./lib/pkce";
import { serverAddress } from "./lib/server";
import { clearSession, loadRegistration, loadSession, saveRegistration, saveSession, type Session } from "./session";

export const SCOPE = "extension";

async function registeredClient(server: string, redirectUri: string): Promise<string> {
  const known = await loadRegistration(server, redirectUri);
  if (known) return known.clientId;
  const response = await fetch(`${server}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "omit",
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      client_name: "Verbatim browser extension",
      scope: SCOPE,
      grant_types: ["authorization_code", "refresh_token"],
    }),
  });
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as { client_id?: unknown };
  if (typeof body.client_id !== "string") throw new ApiError(502, null, "Verbatim registered no client.");
  await saveRegistration({ server, clientId: body.client_id, redirectUri });
  return body.client_id;
}

/**
 * Signs in at the address typed. Must start from the person's click: the browser asks them first for the
 * permission to reach that server (the extension holds none for it until then).
 */
export async function signIn(address: string): Promise<Session> {
  const parsed = serverAddress(address);
  if (!parsed.ok) throw new ApiError(400, null, parsed.problem);
  // The request comes first, before anything is awaited: Firefox honours it only within the click itself. For a
  // permission the extension holds already (this machine's servers) it answers true without asking.
  if (!(await browserApi.permissions.request({ origins: [parsed.pattern] })))
    throw new ApiError(403, null, `The extension needs your permission to reach ${parsed.origin}.`);
  const server = parsed.origin;
  const redirectUri = browserApi.identity.getRedirectURL();
  const clientId = await registeredClient(server, redirectUri);
  const verifier = randomToken();
  const state = randomToken();
  const authorize = new URL(`${server}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: SCOPE,
    state,
    code_challenge: await codeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const landed = await browserApi.identity.launchWebAuthFlow({ url: authorize.href, interactive: true });
  if (!landed) throw new ApiError(400, null, "The sign-in was closed before it finished.");
  const answer = new URL(landed).searchParams;
  if (answer.get("state") !== state) throw new ApiError(400, null, "The sign-in's answer was not for this request.");
  const error = answer.get("error");
  if (error)
    throw new ApiError(
      400,
      error,
      error === "access_denied" ? "You did not allow the extension." : (answer.get("error_description") ?? error),
    );
  const code = answer.get("code");
  if (!code) throw new ApiError(400, null, "The sign-in's answer had no code.");
  const response = await tokenRequest(server, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
  });
  const session = await sessionFromTokens(response, { server, clientId, redirectUri });
  await saveSession(session);
  return session;
}

/** Ends the grant at the server (the refresh token revokes all of it), then forgets the tokens here. */
export async function signOut(): Promise<void> {
  const session = await loadSession();
  await clearSession();
  if (!session) return;
  const token = session.refresh ?? session.access;
  await fetch(`${session.server}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    credentials: "omit",
    body: new URLSearchParams({ token, client_id: session.clientId }).toString(),
  }).catch(() => undefined);
}
