import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";

// Auth.js itself, through the app's route handlers (as `next start` calls them): the development login,
// its redirect after sign-in, and sign-out.

const APP = "http://localhost:3000";
let database: Awaited<ReturnType<typeof useTestDatabase>>;
let auth: typeof import("@/app/api/auth/[...nextauth]/route");
let smtp: Server;
/** Recipients of the magic-link mails the fake SMTP server below received, and the mails' text. */
const mailedTo: string[] = [];
const mailed: string[] = [];

beforeAll(async () => {
  smtp = await fakeSmtp();
  process.env.APP_URL = APP;
  process.env.AUTH_DEV_LOGIN = "true";
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.address() as { port: number }).port}`;
  database = await useTestDatabase();
  auth = await import("@/app/api/auth/[...nextauth]/route");
});
afterAll(async () => {
  await database.teardown();
  smtp.close();
});

/** Just enough SMTP (RFC 5321: greeting, EHLO, MAIL, RCPT, DATA, QUIT) for nodemailer to deliver a mail. */
function fakeSmtp(): Promise<Server> {
  const server = createServer((socket) => {
    let inData = false;
    let buffered = "";
    socket.write("220 fake ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      let end: number;
      while ((end = buffered.indexOf("\r\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          mailed[mailed.length - 1] += `${line}\r\n`;
          if (line === ".") {
            inData = false;
            socket.write("250 queued\r\n");
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 fake\r\n");
        else if (verb === "RCPT") {
          mailedTo.push(/<(.*)>/.exec(line)?.[1] ?? "");
          socket.write("250 ok\r\n");
        } else if (verb === "DATA") {
          inData = true;
          mailed.push("");
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A cookie jar of name=value pairs, fed by Set-Cookie answers. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function authCall(
  jar: Jar,
  method: "GET" | "POST",
  path: string,
  form?: string,
  headers: Record<string, string> = {},
) {
  const request = new NextRequest(new URL(path, APP), {
    method,
    headers: {
      cookie: jar.header(),
      ...(form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      ...headers,
    },
    body: form,
  });
  const response = await (method === "GET" ? auth.GET : auth.POST)(request);
  jar.take(response);
  return response;
}

/** Signs in with the development login, sending `callbackUrl` exactly as given (already form-encoded). */
export async function devLogin(
  jar: Jar,
  email: string,
  encodedCallbackUrl: string,
  headers: Record<string, string> = {},
) {
  const csrf = await authCall(jar, "GET", "/api/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = `csrfToken=${encodeURIComponent(csrfToken)}&email=${encodeURIComponent(email)}&callbackUrl=${encodedCallbackUrl}`;
  return authCall(jar, "POST", "/api/auth/callback/dev-login", form, headers);
}

const email = () => `signin-${Math.random().toString(36).slice(2, 10)}@example.test`;

describe("redirect after sign-in", () => {
  it.each([
    ["/\\evil.example", encodeURIComponent("/\\evil.example")],
    ["%2F%5Cevil.example (decoded once by the form)", "%2F%5Cevil.example"],
    ["%2F%5Cevil.example (literal)", encodeURIComponent("%2F%5Cevil.example")],
    ["//evil.example", encodeURIComponent("//evil.example")],
    ["https:evil.example", encodeURIComponent("https:evil.example")],
    ["/\t/evil.example", encodeURIComponent("/\t/evil.example")],
    ["javascript:alert(1)", encodeURIComponent("javascript:alert(1)")],
  ])("signs in but never leaves the site for %s", async (_label, encoded) => {
    const jar = new Jar();
    const response = await devLogin(jar, email(), encoded);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${APP}/dashboard`);
    expect([...jar.cookies.keys()]).toContain("authjs.session-token");
  });

  it("goes back to the page that asked for sign-in", async () => {
    const jar = new Jar();
    const response = await devLogin(jar, email(), encodeURIComponent("/dashboard/keys?x=1"));
    expect(response.headers.get("location")).toBe(`${APP}/dashboard/keys?x=1`);
  });

  it("does not keep an unsafe callbackUrl in Auth.js's callback cookie either", async () => {
    const jar = new Jar();
    await authCall(jar, "GET", `/api/auth/signin?callbackUrl=${encodeURIComponent("/\\evil.example")}`);
    expect(decodeURIComponent(jar.cookies.get("authjs.callback-url") ?? "")).toBe(`${APP}/dashboard`);
  });
});

describe("links are built from APP_URL only", () => {
  it("a magic link keeps APP_URL's scheme and host whatever X-Forwarded-Proto/-Host the client sent", async () => {
    const jar = new Jar();
    const { csrfToken } = (await (await authCall(jar, "GET", "/api/auth/csrf")).json()) as { csrfToken: string };
    const address = email();
    // What Next.js hands the route handler when a client forges the forwarding headers (TRUSTED_PROXY_HOPS=0).
    const forged = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example", host: "evil.example" };
    const request = new NextRequest("https://evil.example/api/auth/signin/nodemailer", {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded", ...forged },
      body: new URLSearchParams({ csrfToken, email: address, callbackUrl: "/dashboard" }).toString(),
    });
    const response = await auth.POST(request);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(new RegExp(`^${APP}/`));
    await expect.poll(() => mailedTo.includes(address)).toBe(true);
    // The mail as sent: quoted-printable soft line breaks and =3D undone.
    const text = mailed.at(-1)!.replace(/=\r\n/g, "").replace(/=3D/g, "=");
    expect(text).toContain(`${APP}/api/auth/callback/nodemailer?`);
    expect(text).not.toContain("evil.example");
    expect(text).not.toContain("https://");
  });
});

describe("Auth.js's own pages", () => {
  it("carry the page policy: the sign-out confirmation cannot be framed", async () => {
    const response = await authCall(new Jar(), "GET", "/api/auth/signout");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(await response.text()).toContain("csrfToken");
    // JSON answers are left as they are.
    const csrf = await authCall(new Jar(), "GET", "/api/auth/csrf");
    expect(csrf.headers.get("content-security-policy")).toBeNull();
  });
});

/** Signs in a new user and returns the jar holding its session cookie. */
async function signedIn(address = email()) {
  const jar = new Jar();
  await devLogin(jar, address, encodeURIComponent("/dashboard"));
  expect(jar.cookies.has("authjs.session-token")).toBe(true);
  return jar;
}

async function apiKeyStatus(cookie: string) {
  const { GET } = await import("@/app/v1/me/api-key/route");
  return (await callRoute(GET, "/v1/me/api-key", { headers: { cookie } })).status;
}

/** What auth() (server components, the dashboard layout) and /api/auth/session see for this cookie. */
async function sessionEmail(cookie: string): Promise<string | null> {
  const jar = new Jar();
  const response = await authCall(jar, "GET", "/api/auth/session", undefined, { cookie });
  const body = (await response.json()) as { user?: { email?: string } } | null;
  return body?.user?.email ?? null;
}

describe("sessions can be ended", () => {
  it("after sign-out the same cookie no longer works, in API routes or pages", async () => {
    const address = email();
    const jar = await signedIn(address);
    const stolen = jar.header();
    expect(await apiKeyStatus(stolen)).toBe(200);
    expect(await sessionEmail(stolen)).toBe(address);

    const csrf = await authCall(jar, "GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const out = await authCall(
      jar,
      "POST",
      "/api/auth/signout",
      new URLSearchParams({ csrfToken, callbackUrl: "/" }).toString(),
    );
    expect(out.status).toBe(302);
    expect(jar.cookies.has("authjs.session-token")).toBe(false);

    // The copy kept from before is refused, and Auth.js does not hand out a fresh cookie for it.
    expect(await apiKeyStatus(stolen)).toBe(401);
    expect(await sessionEmail(stolen)).toBeNull();
    const refresh = await authCall(new Jar(), "GET", "/api/auth/session", undefined, { cookie: stolen });
    expect(
      refresh.headers
        .getSetCookie()
        .some((c) => c.startsWith("authjs.session-token=") && !/expires=thu, 01 jan 1970|max-age=0/i.test(c)),
    ).toBe(false);
  });

  it("sign out everywhere ends every session of the user, and only theirs; the API key keeps working", async () => {
    const address = email();
    const [laptop, phone] = [await signedIn(address), await signedIn(address)];
    const other = await signedIn();
    const user = await database.db.user.findUniqueOrThrow({ where: { email: address } });
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    const key = (await ensureApiKey(user.id)).key!;

    const { POST } = await import("@/app/v1/me/sessions/revoke/route");
    const ended = await callRoute(POST, "/v1/me/sessions/revoke", {
      method: "POST",
      headers: { cookie: phone.header(), origin: APP },
    });
    expect(ended.status).toBe(200);
    expect(ended.json).toEqual({ ended: 2 });

    for (const jar of [laptop, phone]) {
      expect(await apiKeyStatus(jar.header())).toBe(401);
      expect(await sessionEmail(jar.header())).toBeNull();
    }
    expect(await apiKeyStatus(other.header())).toBe(200);
    const { GET } = await import("@/app/v1/me/api-key/route");
    expect((await callRoute(GET, "/v1/me/api-key", { headers: bearer(key) })).status).toBe(200);
    // Signing in again works as before.
    expect(await apiKeyStatus((await signedIn(address)).header())).toBe(200);
  });

  it("a cookie without a session id (issued before sessions could be ended) is refused", async () => {
    const { encode } = await import("next-auth/jwt");
    const { authSecret } = await import("@/lib/auth/secret");
    const user = await database.db.user.create({ data: { email: email() } });
    const token = await encode({ token: { sub: user.id }, secret: authSecret(), salt: "authjs.session-token" });
    expect(await apiKeyStatus(`authjs.session-token=${token}`)).toBe(401);
  });
});

// Last in this file: it uses up the shared per-address allowance of sign-in attempts.
describe("sign-in limits", () => {
  it("magic-link mails: at most RATE_LIMITS.magicLinkEmail per email, whatever address the client claims", async () => {
    const { RATE_LIMITS } = await import("@/lib/http/rate-limits");
    const target = email();
    const outcomes: string[] = [];
    for (let i = 0; i < RATE_LIMITS.magicLinkEmail.points + 2; i++) {
      const jar = new Jar();
      const csrf = await authCall(jar, "GET", "/api/auth/csrf");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const form = new URLSearchParams({ csrfToken, email: target, callbackUrl: "/dashboard" }).toString();
      const response = await authCall(jar, "POST", "/api/auth/signin/nodemailer", form, {
        "x-forwarded-for": `203.0.113.${i}`,
      });
      outcomes.push(new URL(response.headers.get("location")!).searchParams.get("code") ?? "sent");
    }
    const points = RATE_LIMITS.magicLinkEmail.points;
    expect(outcomes).toEqual([...Array<string>(points).fill("sent"), "rate_limited", "rate_limited"]);
    expect(mailedTo.filter((to) => to === target)).toHaveLength(points);
  });

  it("development-login attempts, each with a fresh X-Forwarded-For and email, run into the per-address limit", async () => {
    const { RATE_LIMITS } = await import("@/lib/http/rate-limits");
    const outcomes: string[] = [];
    for (let i = 0; i < RATE_LIMITS.signInAddress.points + 5; i++) {
      const jar = new Jar();
      const response = await devLogin(jar, email(), encodeURIComponent("/dashboard"), {
        "x-forwarded-for": `198.51.100.${i}`,
      });
      const location = new URL(response.headers.get("location")!);
      const code = location.searchParams.get("code");
      outcomes.push(code ?? (jar.cookies.has("authjs.session-token") ? "signed-in" : "no-session"));
      if (code) expect(location.pathname).toBe("/signin");
    }
    expect(outcomes).toContain("rate_limited");
    const first = outcomes.indexOf("rate_limited");
    expect(first).toBeGreaterThan(0);
    expect(outcomes.slice(0, first).every((o) => o === "signed-in")).toBe(true);
    expect(outcomes.slice(first).every((o) => o === "rate_limited")).toBe(true);
  });
});
