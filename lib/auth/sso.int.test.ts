import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { freePort } from "@/test/free-port";
import { startOidcProvider, type TestOidcProvider } from "@/test/oidc-provider";
import { emailLinkSignIn, oidcSignIn, type Jar } from "@/test/auth-flow";

// Sign-in only through the provider, for those who should, against a real OpenID Connect provider (oidc-provider,
// in this process) through the app's own Auth.js and /v1 route handlers: the group gate (OIDC_ALLOWED_GROUPS), a
// team that requires the provider (require_sso), how long a session made through the provider lasts
// (OIDC_SESSION_MAX_AGE_HOURS), and a verified domain joining a person who signs in through it.

const APP = "http://localhost:3000";
const HOUR = 3600_000;
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let provider: TestOidcProvider;
let auth: typeof import("@/app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  provider = await startOidcProvider(await freePort(), `${APP}/api/auth/callback/oidc`);
  Object.assign(process.env, {
    APP_URL: APP,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_SCOPES: "openid email profile groups",
    OIDC_ALLOWED_GROUPS: "verbatim-users, verbatim-admins",
    SMTP_URL: "smtp://127.0.0.1:9",
  });
  ctx = await useTestDatabase();
  auth = await import("@/app/api/auth/[...nextauth]/route");
});
afterAll(async () => {
  await ctx?.teardown();
  await provider?.close();
});

const unique = () => Math.random().toString(36).slice(2, 10);

/** A person known to the provider, in `groups`, under a fresh login and e-mail. */
function providerPerson(groups: string[], domain = "example.test") {
  const login = `p-${unique()}`;
  const email = `${login}@${domain}`;
  provider.setPerson(login, { email, email_verified: true, groups });
  return { login, email };
}

async function sessionRow(email: string) {
  const user = await ctx.db.user.findUniqueOrThrow({ where: { email }, include: { sessions: true } });
  return { userId: user.id, sessions: user.sessions };
}

describe("OIDC_ALLOWED_GROUPS", () => {
  it("refuses a person in none of the groups with a sentence and no account, and lets a member in", async () => {
    const outsider = providerPerson(["contractors"]);
    const refused = await oidcSignIn(auth, APP, outsider.login);
    expect(refused.location).toBe(`${APP}/signin?error=AccessDenied&code=group`);
    expect(refused.jar.cookies.has("authjs.session-token")).toBe(false);
    expect(await ctx.db.user.count({ where: { email: outsider.email } })).toBe(0);

    const member = providerPerson(["contractors", "verbatim-admins"]);
    const signedIn = await oidcSignIn(auth, APP, member.login);
    expect(signedIn.location).toBe(`${APP}/dashboard`);
    expect(signedIn.jar.cookies.has("authjs.session-token")).toBe(true);
    const { sessions } = await sessionRow(member.email);
    expect(sessions).toEqual([expect.objectContaining({ method: "oidc", confirmedAt: expect.any(Date) })]);
  });
});

describe("a session made through the provider", () => {
  it("ends OIDC_SESSION_MAX_AGE_HOURS after the provider confirmed it; then the provider decides again", async () => {
    const { touchSession } = await import("@/lib/auth/sessions");
    const ana = providerPerson(["verbatim-users"]);
    await oidcSignIn(auth, APP, ana.login);
    const { userId, sessions } = await sessionRow(ana.email);
    const [session] = sessions;
    const confirmed = session.confirmedAt!.getTime();
    expect(session.expires.getTime()).toBe(confirmed + 12 * HOUR);

    // Used on for eleven hours it lasts, but the rolling lifetime never carries it past twelve.
    expect(await touchSession(session.sessionToken, userId, new Date(confirmed + 11 * HOUR))).toBe(true);
    const row = await ctx.db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(row.expires.getTime()).toBe(confirmed + 12 * HOUR);
    expect(await touchSession(session.sessionToken, userId, new Date(confirmed + 13 * HOUR))).toBe(false);

    // An e-mail link's session of the same person keeps the rolling thirty days.
    const byLink = await emailLinkSignIn(auth, APP, ana.email);
    expect(byLink.location).toBe(`${APP}/dashboard`);
    const link = (await sessionRow(ana.email)).sessions.find((s) => s.method === "nodemailer")!;
    expect(link.confirmedAt).toBeNull();
    expect(await touchSession(link.sessionToken, userId, new Date(confirmed + 13 * HOUR))).toBe(true);

    // Removed from the group at the provider: the next sign-in through it is refused.
    provider.setPerson(ana.login, { email: ana.email, email_verified: true, groups: [] });
    expect((await oidcSignIn(auth, APP, ana.login)).location).toBe(`${APP}/signin?error=AccessDenied&code=group`);
  });
});

describe("a team that requires sign-in through the provider", () => {
  const cookie = (jar: Jar, teamId: string) => `${jar.header()}; verbatim-workspace=${teamId}`;

  it("is opened by a session that came through the provider, not by an e-mail link's; keys keep working", async () => {
    const owner = await createCaller(ctx.db);
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Acme", slug: `acme-${unique()}` } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: owner.userId, role: "owner" } });
    const ana = providerPerson(["verbatim-users"]);
    await oidcSignIn(auth, APP, ana.login);
    const { userId: anaId } = await sessionRow(ana.email);
    await ctx.db.membership.create({ data: { teamId: team.id, userId: anaId, role: "admin" } });

    const { PATCH } = await import("@/app/v1/teams/[team_id]/route");
    const patch = (headers: Record<string, string>, body: unknown) =>
      callRoute(PATCH, `/v1/teams/${team.id}`, { method: "PATCH", headers, body, params: { team_id: team.id } });
    // Only the owner turns it on (here with their personal API key, which is not a session).
    const byAdmin = await patch(
      { cookie: (await oidcSignIn(auth, APP, ana.login)).jar.header(), origin: APP },
      { require_sso: true },
    );
    expect(byAdmin.status).toBe(403);
    const turnedOn = await patch(owner.headers, { require_sso: true });
    expect(turnedOn.json).toMatchObject({ require_sso: true });

    const { GET: me } = await import("@/app/v1/me/route");
    const { PUT: chooseWorkspace } = await import("@/app/v1/me/workspace/route");
    const { GET: members } = await import("@/app/v1/teams/[team_id]/members/route");
    const asTeam = (jar: Jar) => callRoute(me, "/v1/me", { headers: { cookie: cookie(jar, team.id) } });
    const listMembers = (jar: Jar) =>
      callRoute(members, `/v1/teams/${team.id}/members`, {
        headers: { cookie: jar.header() },
        params: { team_id: team.id },
      });
    const choose = (jar: Jar, workspace_id: string | null) =>
      callRoute(chooseWorkspace, "/v1/me/workspace", {
        method: "PUT",
        headers: { cookie: cookie(jar, team.id), origin: APP },
        body: { workspace_id },
      });

    const { jar: linkJar } = await emailLinkSignIn(auth, APP, ana.email);
    for (const refused of [await asTeam(linkJar), await listMembers(linkJar), await choose(linkJar, team.id)]) {
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ code: "sso_required", detail: expect.stringContaining("single sign-on") });
    }
    // A person's own operations do not act in the team: listing their teams, and the way out of its workspace.
    const { GET: teams } = await import("@/app/v1/teams/route");
    const listed = await callRoute(teams, "/v1/teams", { headers: { cookie: cookie(linkJar, team.id) } });
    expect(listed.json).toMatchObject({ teams: [expect.objectContaining({ id: team.id })] });
    expect((await choose(linkJar, null)).json).toMatchObject({ kind: "person" });

    const { jar: ssoJar } = await oidcSignIn(auth, APP, ana.login);
    expect((await asTeam(ssoJar)).json).toMatchObject({ workspace: { id: team.id, role: "admin" } });
    expect((await listMembers(ssoJar)).status).toBe(200);
    expect((await choose(ssoJar, team.id)).status).toBe(200);

    // The team's API key is not a session: it keeps working.
    const { ensureApiKey } = await import("@/lib/auth/api-keys");
    const { key } = await ensureApiKey(team.id, { personId: owner.userId });
    const byKey = await callRoute(me, "/v1/me", { headers: { authorization: `Bearer ${key!}` } });
    expect(byKey.status).toBe(200);

    // The operator's switch turns it off (the owner's way back in), in the trail.
    const { setRequireSsoAsOperator } = await import("@/lib/teams/teams");
    await setRequireSsoAsOperator(team.slug!, false);
    expect((await asTeam(linkJar)).status).toBe(200);
    const trail = await ctx.db.auditEvent.findMany({
      where: { teamId: team.id, action: "team.sso_required" },
      orderBy: { createdAt: "asc" },
      select: { actorLabel: true, data: true },
    });
    expect(trail.map((event) => [event.actorLabel, event.data])).toEqual([
      [expect.stringContaining("@"), { require_sso: true }],
      ["Server operator", { require_sso: false }],
    ]);
  });
});

describe("a verified domain, signing in through the provider", () => {
  it("joins a person of the domain as its role, and nobody of another domain", async () => {
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Labs", slug: `labs-${unique()}` } });
    const domain = `labs-${unique()}.test`;
    await ctx.db.teamDomain.create({
      data: { teamId: team.id, domain, token: "t", role: "viewer", verifiedDomain: domain, verifiedAt: new Date() },
    });
    const inside = providerPerson(["verbatim-users"], domain);
    const outside = providerPerson(["verbatim-users"], `elsewhere-${unique()}.test`);
    for (const person of [inside, outside]) await oidcSignIn(auth, APP, person.login);
    const roles = await ctx.db.membership.findMany({
      where: { teamId: team.id },
      select: { role: true, user: { select: { email: true } } },
    });
    expect(roles).toEqual([{ role: "viewer", user: { email: inside.email } }]);
  });
});
