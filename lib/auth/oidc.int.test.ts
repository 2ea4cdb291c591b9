import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { useTestDatabase } from "@/test/app-db";

// The identity provider's role map applied to real memberships, and the operator's way back in when sign-in
// links by e-mail are off, through the app's Auth.js route handlers. The browser journeys against a real
// OpenID Connect provider are e2e/oidc.spec.ts.

const APP = "http://localhost:3000";
let database: Awaited<ReturnType<typeof useTestDatabase>>;
let auth: typeof import("@/app/api/auth/[...nextauth]/route");
let oidc: typeof import("@/lib/auth/oidc");
let settings: import("@/lib/env").Env;

beforeAll(async () => {
  Object.assign(process.env, {
    APP_URL: APP,
    OIDC_ISSUER: "https://id.example.test",
    OIDC_CLIENT_ID: "verbatim",
    OIDC_NAME: "Acme SSO",
    OIDC_TEAM_ROLES: "acme:admin=acme-admins,acme:member=acme-users,labs:viewer=labs",
    // A mail server is set, so only the switch keeps e-mail links off (nothing is ever sent to it).
    SMTP_URL: "smtp://127.0.0.1:9",
    AUTH_EMAIL_SIGNIN: "off",
  });
  database = await useTestDatabase();
  auth = await import("@/app/api/auth/[...nextauth]/route");
  oidc = await import("@/lib/auth/oidc");
  settings = (await import("@/lib/env")).env();
});
afterAll(async () => {
  await database.teardown();
});

const unique = () => Math.random().toString(36).slice(2, 10);

async function team(slug: string) {
  return database.db.user.create({ data: { kind: "team", name: slug, slug: `${slug}-${unique()}` } });
}

async function person() {
  return database.db.user.create({ data: { email: `p-${unique()}@example.test` } });
}

async function roles(userId: string) {
  const rows = await database.db.membership.findMany({
    where: { userId },
    select: { role: true, managedByIdentityProvider: true, team: { select: { name: true } } },
  });
  return Object.fromEntries(
    rows.map((row) => [row.team.name, `${row.role}${row.managedByIdentityProvider ? "*" : ""}`]),
  );
}

describe("team roles from the roles claim", () => {
  // The map names teams by slug; each test's teams get fresh slugs, so the map is rewritten per test.
  function withMap(map: Record<string, string>) {
    const rules = Object.entries(map).flatMap(([slug, text]) => text.split(",").map((entry) => `${slug}:${entry}`));
    return { ...settings, OIDC_TEAM_ROLES: rules.join(",") };
  }

  it("gives, changes and takes away the named teams on each sign-in, and leaves hand-made ones alone", async () => {
    const [acme, labs, other] = [await team("acme"), await team("labs"), await team("other")];
    const ana = await person();
    await database.db.membership.create({ data: { teamId: other.id, userId: ana.id, role: "member" } });
    const map = withMap({ [acme.slug!]: "admin=acme-admins,member=acme-users", [labs.slug!]: "viewer=labs" });

    await oidc.applyTeamRoles(ana.id, { groups: ["acme-users", "labs"] }, map);
    expect(await roles(ana.id)).toEqual({ acme: "member*", labs: "viewer*", other: "member" });
    // The team's activity names the provider as its sign-in button does (OIDC_NAME), not by its host.
    const events = await database.db.auditEvent.findMany({ where: { teamId: acme.id }, select: { actorLabel: true } });
    expect(events.map((event) => event.actorLabel)).toEqual(["Acme SSO"]);

    // The second sign-in: promoted in one team, removed from the other's group.
    await oidc.applyTeamRoles(ana.id, { groups: ["acme-users", "acme-admins"] }, map);
    expect(await roles(ana.id)).toEqual({ acme: "admin*", other: "member" });

    // Removed from every group: the named teams go; the hand-made membership of a team the map does not name stays.
    await oidc.applyTeamRoles(ana.id, { groups: "unrelated" }, map);
    expect(await roles(ana.id)).toEqual({ other: "member" });
  });

  it("takes over a hand-made membership of a team the map names, and drops what it made once the map forgets a team", async () => {
    const [acme, labs] = [await team("acme"), await team("labs")];
    const bo = await person();
    await database.db.membership.create({ data: { teamId: acme.id, userId: bo.id, role: "admin" } });
    await oidc.applyTeamRoles(
      bo.id,
      { groups: ["acme-users", "labs"] },
      withMap({ [acme.slug!]: "member=acme-users", [labs.slug!]: "viewer=labs" }),
    );
    expect(await roles(bo.id)).toEqual({ acme: "member*", labs: "viewer*" });
    await oidc.applyTeamRoles(
      bo.id,
      { groups: ["acme-users", "labs"] },
      withMap({ [acme.slug!]: "member=acme-users" }),
    );
    expect(await roles(bo.id)).toEqual({ acme: "member*" });
  });

  it("never leaves a team without an owner, and ignores a map entry for a team that does not exist", async () => {
    const acme = await team("acme");
    const owner = await person();
    await database.db.membership.create({ data: { teamId: acme.id, userId: owner.id, role: "owner" } });
    await oidc.applyTeamRoles(
      owner.id,
      { groups: [] },
      withMap({ [acme.slug!]: "member=acme-users", "no-such-team": "admin=x" }),
    );
    expect(await roles(owner.id)).toEqual({ acme: "owner" });
  });
});

/** A cookie jar of name=value pairs, fed by Set-Cookie answers. */
class Jar {
  readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      const value = pair.slice(index + 1);
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, index));
      else this.cookies.set(pair.slice(0, index), value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function authCall(jar: Jar, method: "GET" | "POST", url: string, form?: string) {
  const request = new NextRequest(new URL(url, APP), {
    method,
    headers: { cookie: jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form,
  });
  const response = await (method === "GET" ? auth.GET : auth.POST)(request);
  jar.take(response);
  return response;
}

describe("e-mail links switched off (AUTH_EMAIL_SIGNIN=off)", () => {
  it("refuses to make a link for anyone who asks, and the sign-in page offers none", async () => {
    const jar = new Jar();
    const { csrfToken } = (await (await authCall(jar, "GET", "/api/auth/csrf")).json()) as { csrfToken: string };
    const email = `ask-${unique()}@example.test`;
    const response = await authCall(
      jar,
      "POST",
      "/api/auth/signin/nodemailer",
      new URLSearchParams({ csrfToken, email, callbackUrl: "/dashboard" }).toString(),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${APP}/signin?error=AccessDenied`);
    expect(await database.db.verificationToken.count({ where: { identifier: email } })).toBe(0);
    const { enabledProviders } = await import("@/lib/auth/nextauth");
    expect(enabledProviders().map((provider) => provider.id)).toEqual(["oidc"]);
  });

  it("lets the operator in once with `npm run signin-link`'s link", async () => {
    const { makeSignInLink } = await import("@/lib/auth/operator-link");
    const email = `operator-${unique()}@example.test`;
    const { url } = await makeSignInLink(` ${email.toUpperCase()} `);
    expect(url.startsWith(`${APP}/api/auth/callback/nodemailer?`)).toBe(true);

    const jar = new Jar();
    const response = await authCall(jar, "GET", url);
    expect(response.headers.get("location")).toBe(`${APP}/dashboard`);
    expect(jar.cookies.has("authjs.session-token")).toBe(true);
    const user = await database.db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    expect(await database.db.session.count({ where: { userId: user.id } })).toBe(1);

    const again = await authCall(new Jar(), "GET", url);
    expect(again.headers.get("location")).toMatch(/\/signin\?error=Verification/);
    await expect(makeSignInLink("not an address")).rejects.toThrow(/not an e-mail address/);
  });
});
