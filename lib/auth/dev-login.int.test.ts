import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stampPeerAddress } from "@/lib/http/client-address";
import { seedEmbeddedDataDir } from "../../test/shared-fixtures";

// The development login as it is on by default (the embedded database, a loopback APP_URL, AUTH_DEV_LOGIN
// unset), through Auth.js's route handlers, with each request's headers as the request guard stamps them on
// Node's request: for a person at this machine only, and not through a proxy or tunnel on it.

const APP = "http://localhost:3000";
let dataDir: string;
let auth: typeof import("@/app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "verbatim-dev-login-"));
  delete process.env.DATABASE_URL;
  delete process.env.AUTH_DEV_LOGIN;
  process.env.DATA_DIR = dataDir;
  await seedEmbeddedDataDir(dataDir);
  process.env.APP_URL = APP;
  process.env.AUTH_SECRET ??= "integration-tests-secret-integration-tests";
  auth = await import("@/app/api/auth/[...nextauth]/route");
});
afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db/client");
  await closeDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

/** A request's headers as Next.js hands them on after the request guard saw its socket. */
function arrived(remoteAddress: string, headers: Record<string, string>): Record<string, string> {
  const raw = {
    headers: { host: "localhost:3000", ...headers } as Record<string, string | undefined>,
    socket: { remoteAddress },
  };
  stampPeerAddress(raw);
  return raw.headers as Record<string, string>;
}

/** Signs in with the development login; the outcome: "signed in", or the error Auth.js sends the browser back with. */
async function devLogin(headers: Record<string, string>): Promise<string> {
  const call = (method: "GET" | "POST", route: string, cookie: string, body?: string) =>
    (method === "GET" ? auth.GET : auth.POST)(
      new NextRequest(new URL(route, APP), {
        method,
        headers: {
          ...headers,
          cookie,
          ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        body,
      }),
    );
  const csrf = await call("GET", "/api/auth/csrf", "");
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const email = `dev-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const answer = await call(
    "POST",
    "/api/auth/callback/dev-login",
    cookie,
    `csrfToken=${encodeURIComponent(csrfToken)}&email=${encodeURIComponent(email)}&callbackUrl=%2Fdashboard`,
  );
  if (answer.headers.getSetCookie().some((line) => line.startsWith("authjs.session-token="))) return "signed in";
  return new URL(answer.headers.get("location")!).searchParams.get("error") ?? "no session";
}

describe("the development login, on by default", () => {
  it("signs in a browser on this machine", async () => {
    const { env } = await import("@/lib/env");
    expect(env()).toMatchObject({ embedded: true, devLogin: true });
    expect(env().AUTH_DEV_LOGIN).toBeUndefined();
    expect(await devLogin(arrived("127.0.0.1", {}))).toBe("signed in");
  });

  it.each([
    ["X-Forwarded-For", { "x-forwarded-for": "203.0.113.9" }],
    ["Forwarded", { forwarded: "for=203.0.113.9;proto=https" }],
    ["X-Real-IP", { "x-real-ip": "203.0.113.9" }],
    ["CF-Connecting-IP", { "cf-connecting-ip": "203.0.113.9" }],
    ["a Host that is not loopback", { host: "abcd.ngrok-free.app" }],
  ])("refuses a request through a proxy on this machine (%s)", async (_what, headers) => {
    expect(await devLogin(arrived("127.0.0.1", headers))).toBe("CredentialsSignin");
  });

  it("refuses another machine", async () => {
    expect(await devLogin(arrived("192.168.1.20", {}))).toBe("CredentialsSignin");
  });

  it("is offered by the sign-in page only where it would be allowed", async () => {
    const { enabledProviders } = await import("@/lib/auth/nextauth");
    const offered = (headers: Record<string, string>) =>
      enabledProviders(new Headers(headers)).map((provider) => provider.id);
    expect(offered(arrived("127.0.0.1", {}))).toContain("dev-login");
    expect(offered(arrived("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }))).not.toContain("dev-login");
    expect(offered(arrived("127.0.0.1", { host: "abcd.ngrok-free.app" }))).not.toContain("dev-login");
    expect(offered(arrived("192.168.1.20", {}))).not.toContain("dev-login");
    // The email link stays offered to everyone.
    expect(offered(arrived("192.168.1.20", {}))).toContain("nodemailer");
  });
});
