import { request, type APIRequestContext } from "playwright-core";
import { expect } from "vitest";

// HTTP to the built app for the server suite, through Playwright's API request context (no browser): the tests
// moved from e2e keep their request.fetch/get/post and response.status()/headers()/json()/text(), and a context
// keeps the cookies it is given, as a browser's would.

export type { APIRequestContext, APIResponse } from "playwright-core";

/** A context without a session, as e2e's `request` fixture: dispose of it after the test. */
export function anonymous(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL });
}

/**
 * A context signed in as `email` with the development login (on by default with embedded defaults on a loopback
 * APP_URL), over HTTP as the sign-in page's form does it: the CSRF token from Auth.js, then the form post. It
 * holds the session cookie, in place of e2e's `page.request` after `devLogin(page, email)`.
 */
export async function signIn(baseURL: string, email: string): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL });
  const csrf = await context.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const callback = await context.post("/api/auth/callback/dev-login", {
    form: { csrfToken, email, callbackUrl: "/dashboard" },
    maxRedirects: 0,
  });
  expect(callback.status(), await callback.text()).toBe(302);
  expect(callback.headers().location).toBe(`${baseURL}/dashboard`);
  // As e2e's devLogin saw the address on the dashboard: the session is this user's.
  const session = await context.get("/api/auth/session");
  expect(((await session.json()) as { user?: { email?: string } }).user?.email).toBe(email);
  return context;
}
