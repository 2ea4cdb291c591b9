import { afterAll, beforeAll, describe, expect, it } from "vitest";
import dgram from "node:dgram";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { startDnsServer, type TestDnsServer } from "@/test/dns-server";
import { emailLinkSignIn } from "@/test/auth-flow";

// Verified domains through the route handlers: a team claims a domain, the TXT record is looked up on a real DNS
// server (dns2, in this process, named by DNS_SERVERS), and once verified a person who signs in with an e-mail link
// of that domain joins the team as the domain's role; nobody else does.

const APP = "http://localhost:3000";
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dns: TestDnsServer;
let routes: {
  domains: typeof import("@/app/v1/teams/[team_id]/domains/route");
  domain: typeof import("@/app/v1/teams/[team_id]/domains/[domain]/route");
  verify: typeof import("@/app/v1/teams/[team_id]/domains/[domain]/verify/route");
  auth: typeof import("@/app/api/auth/[...nextauth]/route");
};

beforeAll(async () => {
  dns = await startDnsServer();
  Object.assign(process.env, { APP_URL: APP, DNS_SERVERS: dns.address, SMTP_URL: "smtp://127.0.0.1:9" });
  ctx = await useTestDatabase();
  routes = {
    domains: await import("@/app/v1/teams/[team_id]/domains/route"),
    domain: await import("@/app/v1/teams/[team_id]/domains/[domain]/route"),
    verify: await import("@/app/v1/teams/[team_id]/domains/[domain]/verify/route"),
    auth: await import("@/app/api/auth/[...nextauth]/route"),
  };
});
afterAll(async () => {
  await ctx?.teardown();
  await dns?.close();
});

const unique = () => Math.random().toString(36).slice(2, 10);

/** A team and its owner, who calls with their personal API key. */
async function teamWithOwner() {
  const owner = await createCaller(ctx.db);
  const team = await ctx.db.user.create({ data: { kind: "team", name: "Acme", slug: `acme-${unique()}` } });
  await ctx.db.membership.create({ data: { teamId: team.id, userId: owner.userId, role: "owner" } });
  return { team, owner };
}

type Caller = Awaited<ReturnType<typeof teamWithOwner>>;

const claim = ({ team, owner }: Caller, body: unknown) =>
  callRoute(routes.domains.POST, `/v1/teams/${team.id}/domains`, {
    headers: owner.headers,
    body,
    params: { team_id: team.id },
  });
const verify = ({ team, owner }: Caller, domain: string) =>
  callRoute(routes.verify.POST, `/v1/teams/${team.id}/domains/${domain}/verify`, {
    method: "POST",
    headers: owner.headers,
    params: { team_id: team.id, domain },
  });

async function membershipOf(teamId: string, email: string) {
  const person = await ctx.db.user.findUnique({ where: { email }, select: { id: true } });
  if (!person) return "no account";
  const row = await ctx.db.membership.findUnique({ where: { teamId_userId: { teamId, userId: person.id } } });
  return row?.role ?? "not a member";
}

describe("a team's verified domain", () => {
  it("joins nobody until verified, refuses a wrong record, then joins the domain's people as the chosen role", async () => {
    const acme = await teamWithOwner();
    const domain = `acme-${unique()}.test`;
    const claimed = await claim(acme, { domain: ` ${domain.toUpperCase()}. `, role: "viewer" });
    expect(claimed.status).toBe(201);
    const { verification } = claimed.json as { verification: { name: string; value: string } };
    expect(claimed.json).toMatchObject({ domain, role: "viewer", status: "pending", verified_at: null });
    expect(verification).toMatchObject({ record_type: "TXT", name: `_verbatim.${domain}` });
    expect(verification.value).toMatch(/^verbatim-verification=[\w-]{32}$/);

    // Claimed, not verified: a person of the domain who signs in joins nothing.
    const early = `early@${domain}`;
    expect((await emailLinkSignIn(routes.auth, APP, early)).location).toBe(`${APP}/dashboard`);
    expect(await membershipOf(acme.team.id, early)).toBe("not a member");

    // No record at all, then another value: a 422 that says what was looked for.
    let checked = await verify(acme, domain);
    expect(checked.status).toBe(422);
    expect(checked.json).toMatchObject({ detail: [{ type: "domain_unverified", loc: ["body"] }] });
    dns.setTxt(`_verbatim.${domain}`, ["v=spf1 -all", "verbatim-verification=someone-elses-token"]);
    checked = await verify(acme, domain);
    expect(checked.status).toBe(422);
    expect(checked.text).toContain(`No TXT record \\"${verification.value}\\" at _verbatim.${domain} or ${domain}`);
    expect(await ctx.db.teamDomain.count({ where: { domain, verifiedAt: { not: null } } })).toBe(0);

    dns.setTxt(`_verbatim.${domain}`, ["v=spf1 -all", verification.value]);
    checked = await verify(acme, domain);
    expect(checked.status).toBe(200);
    expect(checked.json).toMatchObject({ domain, status: "verified", verified_at: expect.any(String) });

    // Verified: a new person of the domain joins as a viewer at sign-in; one already signed in joins at the next.
    const ana = `ana@${domain}`;
    await emailLinkSignIn(routes.auth, APP, ana);
    expect(await membershipOf(acme.team.id, ana)).toBe("viewer");
    await emailLinkSignIn(routes.auth, APP, early);
    expect(await membershipOf(acme.team.id, early)).toBe("viewer");
    const joined = await ctx.db.auditEvent.findMany({
      where: { teamId: acme.team.id, action: "member.joined" },
      select: { actorLabel: true, target: true },
    });
    expect(joined).toContainEqual({ actorLabel: `Verified domain ${domain}`, target: ana });

    // Another domain's people, and a subdomain's, join nothing.
    for (const email of [`bo@other-${unique()}.test`, `cy@eu.${domain}`]) {
      await emailLinkSignIn(routes.auth, APP, email);
      expect(await membershipOf(acme.team.id, email), email).toBe("not a member");
    }

    // Listed; deleted, it joins nobody more, and those who joined stay.
    const listed = await callRoute(routes.domains.GET, `/v1/teams/${acme.team.id}/domains`, {
      headers: acme.owner.headers,
      params: { team_id: acme.team.id },
    });
    expect(listed.json).toEqual({ domains: [expect.objectContaining({ domain, status: "verified" })] });
    const deleted = await callRoute(routes.domain.DELETE, `/v1/teams/${acme.team.id}/domains/${domain}`, {
      method: "DELETE",
      headers: acme.owner.headers,
      params: { team_id: acme.team.id, domain },
    });
    expect(deleted.status).toBe(204);
    const late = `late@${domain}`;
    await emailLinkSignIn(routes.auth, APP, late);
    expect(await membershipOf(acme.team.id, late)).toBe("not a member");
    expect(await membershipOf(acme.team.id, ana)).toBe("viewer");
  });

  it("is verified by one team only: the second team to ask gets a 409, and its claim joins nobody", async () => {
    const [first, second] = [await teamWithOwner(), await teamWithOwner()];
    const domain = `shared-${unique()}.test`;
    const values = [];
    for (const team of [first, second]) {
      const claimed = await claim(team, { domain });
      expect(claimed.status).toBe(201);
      expect(claimed.json).toMatchObject({ role: "member" });
      values.push((claimed.json as { verification: { value: string } }).verification.value);
    }
    // Published at the domain itself, both values: the first to ask has it.
    dns.setTxt(domain, values);
    expect((await verify(first, domain)).status).toBe(200);
    const taken = await verify(second, domain);
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: "domain_taken" });
    expect((await claim(first, { domain })).json).toMatchObject({ code: "domain_claimed" });

    const { joinByVerifiedDomain } = await import("@/lib/membership/domain-join");
    const person = await ctx.db.user.create({ data: { email: `dee@${domain}` } });
    // A team the provider's role map decides is not joined by domain (the map would undo it at the next sign-in).
    expect(await joinByVerifiedDomain(person.id, `dee@${domain}`, [first.team.slug!])).toBeNull();
    expect(await joinByVerifiedDomain(person.id, `dee@${domain}`)).toEqual({ teamId: first.team.id, role: "member" });
    expect(await membershipOf(second.team.id, `dee@${domain}`)).toBe("not a member");
  });

  it("answers bad input, lower roles and a silent DNS server with clear errors", async () => {
    const acme = await teamWithOwner();
    for (const domain of ["localhost", "1.2.3.4", "exa mple.com", "-bad.test", "x".repeat(250) + ".test"]) {
      const refused = await claim(acme, { domain });
      expect(refused.status, domain).toBe(422);
    }
    expect((await claim(acme, { domain: "owners.test", role: "owner" })).status).toBe(422);
    expect((await verify(acme, "never-claimed.test")).status).toBe(404);

    const admin = await createCaller(ctx.db);
    await ctx.db.membership.create({ data: { teamId: acme.team.id, userId: admin.userId, role: "admin" } });
    const member = await createCaller(ctx.db);
    await ctx.db.membership.create({ data: { teamId: acme.team.id, userId: member.userId, role: "member" } });
    expect((await claim({ team: acme.team, owner: member }, { domain: "members.test" })).status).toBe(403);
    const byAdmin = await claim({ team: acme.team, owner: admin }, { domain: "admins.test", role: "admin" });
    expect(byAdmin.json).toMatchObject({ domain: "admins.test", role: "admin" });

    // A DNS server that never answers: the lookup ends at its deadline with a 504, not a hung request.
    const silent = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    const { txtRecords } = await import("@/lib/teams/dns-txt");
    const settings = { DNS_SERVERS: [`127.0.0.1:${silent.address().port}`], DNS_TIMEOUT_MS: 300, DNS_TRIES: 1 };
    await expect(txtRecords("example.test", settings)).rejects.toMatchObject({ code: "upstream_timeout" });
    silent.close();
  });
});
