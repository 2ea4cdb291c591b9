import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { useTestDatabase } from "@/test/app-db";

// Auth.js itself, through the app's route handlers (as `next start` calls them): the development login,
// its redirect after sign-in, and sign-out.

const APP = "http://localhost:3000";
let database: Awaited<ReturnType<typeof useTestDatabase>>;
let auth: typeof import("@/app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  process.env.APP_URL = APP;
  process.env.AUTH_DEV_LOGIN = "true";
  database = await useTestDatabase();
  auth = await import("@/app/api/auth/[...nextauth]/route");
});
afterAll(() => database.teardown());

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

const noParams = { params: Promise.resolve({}) } as never;

async function authCall(jar: Jar, method: "GET" | "POST", path: string, form?: string, headers: Record<string, string> = {}) {
  const request = new NextRequest(new URL(path, APP), {
    method,
    headers: {
      cookie: jar.header(),
      ...(form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      ...headers,
    },
    body: form,
  });
  const response = await (method === "GET" ? auth.GET : auth.POST)(request, noParams);
  jar.take(response);
  return response;
}

/** Signs in with the development login, sending `callbackUrl` exactly as given (already form-encoded). */
export async function devLogin(jar: Jar, email: string, encodedCallbackUrl: string, headers: Record<string, string> = {}) {
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
