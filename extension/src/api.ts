// Verbatim's API as the extension calls it: bearer tokens of the extension's own grant, refreshed when they
// lapse; errors carried as the API words them (the contract's {detail, code}), as the dashboard shows them.
import { clearSession, loadSession, saveSession, type Session } from "./session";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    detail: string,
    readonly retryAfter: number | null = null,
  ) {
    super(detail);
  }
}

export class SignedOut extends Error {
  constructor() {
    super("You are signed out. Sign in to your Verbatim again.");
  }
}

/** The error an answer carries, in the API's words; 429 with when to try again. */
export async function errorOf(response: Response): Promise<ApiError> {
  let detail = `Verbatim answered ${response.status}.`;
  let code: string | null = null;
  try {
    const body = (await response.json()) as { detail?: unknown; code?: unknown; error_description?: unknown };
    if (typeof body.detail === "string") detail = body.detail;
    else if (Array.isArray(body.detail)) detail = "Verbatim could not read the request.";
    else if (typeof body.error_description === "string") detail = body.error_description;
    if (typeof body.code === "string") code = body.code;
  } catch {
    // not JSON: the status says it
  }
  const retry = Number(response.headers.get("retry-after"));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  if (retryAfter !== null && response.status === 429) detail = `${detail} Try again in ${retryAfter} s.`;
  return new ApiError(response.status, code, detail, retryAfter);
}

export async function tokenRequest(server: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${server}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    credentials: "omit",
  });
}

/** The session with its token from the answer of the token endpoint. */
export async function sessionFromTokens(
  response: Response,
  base: Omit<Session, "access" | "refresh" | "expiresAt">,
): Promise<Session> {
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== "string") throw new ApiError(502, null, "Verbatim sent no access token.");
  const seconds = typeof body.expires_in === "number" ? body.expires_in : 3600;
  return {
    ...base,
    access: body.access_token,
    refresh: typeof body.refresh_token === "string" ? body.refresh_token : null,
    expiresAt: Date.now() + seconds * 1000,
  };
}

async function refreshed(session: Session): Promise<Session> {
  if (!session.refresh) throw new SignedOut();
  const response = await tokenRequest(session.server, {
    grant_type: "refresh_token",
    refresh_token: session.refresh,
    client_id: session.clientId,
  });
  if (response.status === 400 || response.status === 401) {
    await clearSession();
    throw new SignedOut();
  }
  const next = await sessionFromTokens(response, session);
  await saveSession(next);
  return next;
}

// One refresh at a time: a refresh token is used once, and a second use would end the whole grant.
let refreshing: Promise<Session> | null = null;

async function liveSession(force = false): Promise<Session> {
  const session = await loadSession();
  if (!session) throw new SignedOut();
  if (!force && session.expiresAt - Date.now() > 30_000) return session;
  refreshing ??= refreshed(session).finally(() => (refreshing = null));
  return refreshing;
}

/** A call to `path` (e.g. /v1/me) with the session's token; one refresh and retry when the token has lapsed. */
export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const send = (session: Session) =>
    fetch(`${session.server}${path}`, {
      ...init,
      credentials: "omit",
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${session.access}` },
    });
  let response = await send(await liveSession());
  if (response.status === 401) response = await send(await liveSession(true));
  if (response.status === 401) {
    await clearSession();
    throw new SignedOut();
  }
  return response;
}

/** A JSON call that throws the API's error for anything but 2xx. */
export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await api(path, init);
  if (!response.ok) throw await errorOf(response);
  return { status: response.status, body: (await response.json()) as T };
}

export async function serverOf(): Promise<string | null> {
  return (await loadSession())?.server ?? null;
}
