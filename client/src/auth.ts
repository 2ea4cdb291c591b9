import type { Middleware } from "openapi-fetch";

/**
 * Where the bearer token comes from when it can change while the program runs: an OAuth login whose access
 * token runs out and is refreshed (the `verbatim` CLI's stored login). A fixed key is simply `apiKey`.
 */
export interface CredentialSource {
  /** The token for the next request; null sends none. It may throw to refuse the call (e.g. nobody is logged in). */
  token(): string | null | Promise<string | null>;
  /** After a 401 answer to a request sent with `rejected`: renew the credential; true sends the request once more. */
  refresh?(rejected: string): Promise<boolean>;
}

/**
 * openapi-fetch middleware that sends `Authorization: Bearer` from `credentials` and, when the answer is 401 and the
 * credentials can refresh, renews the credential and sends the request once more.
 */
export function bearerAuth(credentials: CredentialSource): Middleware {
  // Per request id: the token sent, and a copy of the request (its body unread) for the one retry.
  const sent = new Map<string, { token: string; retry: Request | null }>();
  return {
    async onRequest({ request, id }) {
      const token = await credentials.token();
      if (!token) return undefined;
      request.headers.set("authorization", `Bearer ${token}`);
      sent.set(id, { token, retry: credentials.refresh ? request.clone() : null });
      return request;
    },
    async onResponse({ response, id, options }) {
      const attempt = sent.get(id);
      sent.delete(id);
      if (response.status !== 401 || !attempt?.retry || !credentials.refresh) return undefined;
      if (!(await credentials.refresh(attempt.token))) return undefined;
      const token = await credentials.token();
      if (!token) return undefined;
      await response.body?.cancel();
      attempt.retry.headers.set("authorization", `Bearer ${token}`);
      return options.fetch(attempt.retry);
    },
    onError({ id }) {
      sent.delete(id);
      return undefined;
    },
  };
}
