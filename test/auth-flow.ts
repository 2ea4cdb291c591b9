import { NextRequest } from "next/server";

// Sign-in journeys through the app's own Auth.js route handlers, without a browser: a cookie jar, an e-mail link's
// callback, and the whole code flow against a real OpenID Connect provider (test/oidc-provider.ts), whose
// development sign-in pages are driven with plain HTTP.

type AuthRoutes = typeof import("@/app/api/auth/[...nextauth]/route");

/** A cookie jar of name=value pairs, fed by Set-Cookie answers (paths and domains are not told apart). */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line))
        this.cookies.delete(pair.slice(0, index));
      else this.cookies.set(pair.slice(0, index), value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export async function authCall(
  auth: AuthRoutes,
  jar: Jar,
  method: "GET" | "POST",
  url: string,
  { app, form }: { app: string; form?: string },
) {
  const request = new NextRequest(new URL(url, app), {
    method,
    headers: { cookie: jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form,
  });
  const response = await (method === "GET" ? auth.GET : auth.POST)(request);
  jar.take(response);
  return response;
}

/** Signs in with a one-time e-mail link (as `npm run signin-link` makes one); returns the app's jar and where it went. */
export async function emailLinkSignIn(auth: AuthRoutes, app: string, email: string) {
  const { makeSignInLink } = await import("@/lib/auth/operator-link");
  const { url } = await makeSignInLink(email);
  const jar = new Jar();
  const response = await authCall(auth, jar, "GET", url, { app });
  return { jar, location: response.headers.get("location") };
}

/**
 * Signs in through the provider as `login`: the app's sign-in request, the provider's login and consent pages,
 * then the app's callback with the code. Returns the app's jar and where the callback sent the browser.
 */
export async function oidcSignIn(auth: AuthRoutes, app: string, login: string) {
  const jar = new Jar();
  const { csrfToken } = (await (await authCall(auth, jar, "GET", "/api/auth/csrf", { app })).json()) as {
    csrfToken: string;
  };
  const start = await authCall(auth, jar, "POST", "/api/auth/signin/oidc", {
    app,
    form: new URLSearchParams({ csrfToken, callbackUrl: "/dashboard" }).toString(),
  });
  let location: string | null = start.headers.get("location");
  if (!location) throw new Error(`the sign-in did not redirect (${start.status})`);
  const providerJar = new Jar();
  for (let step = 0; step < 12; step++) {
    if (location.startsWith(app)) break;
    let response: Response = await fetch(location, { redirect: "manual", headers: { cookie: providerJar.header() } });
    providerJar.take(response);
    const page: URL = new URL(location);
    if (response.status === 200 && page.pathname.startsWith("/interaction/")) {
      const html = await response.text();
      const form: Record<string, string> = html.includes('name="login"')
        ? { prompt: "login", login, password: "any" }
        : { prompt: "consent" };
      response = await fetch(new URL(page.pathname, page), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: providerJar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      providerJar.take(response);
    }
    const next: string | null = response.headers.get("location");
    if (!next) throw new Error(`the provider stopped at ${page.pathname} (${response.status})`);
    location = new URL(next, page).toString();
  }
  const callback = await authCall(auth, jar, "GET", location, { app });
  return { jar, location: callback.headers.get("location") };
}
