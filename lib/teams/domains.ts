import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { Prisma, type TeamDomain } from "@/lib/generated/prisma/client";
import { lockTeam, personLabel, requirePerson, roleIn } from "@/lib/membership/access";
import { recordAudit } from "@/lib/membership/audit";
import { txtRecords } from "@/lib/teams/dns-txt";
import { mayGrant, TEAM_ACTIONS } from "@/lib/roles/ladder";
import type { CreateDomainRequest, DomainOut } from "@/lib/teams/domain-schemas";

// Verified domains: a team claims a domain, publishes a TXT record of the token it was given and asks for it to be
// checked; once verified (by one team only), a person signing in with a verified e-mail of the domain joins the
// team as the role the team chose, without an invitation (joinByVerifiedDomain, called at sign-in).

/** The TXT record's value, and where to publish it (the domain itself is read too). */
export const TXT_PREFIX = "verbatim-verification=";
export const TXT_LABEL = "_verbatim";

function serialize(row: TeamDomain): DomainOut {
  return {
    domain: row.domain,
    role: row.role,
    status: row.verifiedAt ? "verified" : "pending",
    verification: { record_type: "TXT", name: `${TXT_LABEL}.${row.domain}`, value: `${TXT_PREFIX}${row.token}` },
    created_at: row.createdAt.toISOString(),
    verified_at: row.verifiedAt?.toISOString() ?? null,
  };
}

const notClaimed = (domain: string) => new ApiError("not_found", `The team has not claimed ${domain}.`);

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** POST /v1/teams/{team_id}/domains: claims a domain (admin); it joins nobody until verified. */
export async function addDomain(teamId: string, personId: string | null, request: CreateDomainRequest) {
  const person = requirePerson(personId);
  const db = await getDb();
  try {
    const row = await db.$transaction(async (tx) => {
      const role = await roleIn(tx, teamId, person, TEAM_ACTIONS.manageDomains);
      if (!mayGrant(role, request.role))
        throw new ApiError("forbidden", `Your role (${role}) may not give the ${request.role} role.`);
      await lockTeam(tx, teamId);
      if ((await tx.teamDomain.count({ where: { teamId } })) >= env().TEAM_MAX_DOMAINS)
        throw new ApiError("too_many_domains", `The team has ${env().TEAM_MAX_DOMAINS} domains, the most allowed.`);
      const created = await tx.teamDomain.create({
        data: { teamId, domain: request.domain, role: request.role, token: randomBytes(24).toString("base64url") },
      });
      await recordAudit(tx, {
        teamId,
        actorId: person,
        actorLabel: await personLabel(tx, person),
        action: "domain.added",
        target: request.domain,
        data: { role: request.role },
      });
      return created;
    });
    return serialize(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError("domain_claimed", `The team has claimed ${request.domain} already.`);
    throw error;
  }
}

/** GET /v1/teams/{team_id}/domains (admin). */
export async function listDomains(teamId: string, personId: string | null): Promise<{ domains: DomainOut[] }> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, TEAM_ACTIONS.manageDomains);
  const rows = await db.teamDomain.findMany({ where: { teamId }, orderBy: [{ domain: "asc" }] });
  return { domains: rows.map(serialize) };
}

/** DELETE /v1/teams/{team_id}/domains/{domain} (admin): nobody joins by it any more; members stay. */
export async function deleteDomain(teamId: string, personId: string | null, domain: string): Promise<void> {
  const person = requirePerson(personId);
  const db = await getDb();
  await db.$transaction(async (tx) => {
    await roleIn(tx, teamId, person, TEAM_ACTIONS.manageDomains);
    const { count } = await tx.teamDomain.deleteMany({ where: { teamId, domain } });
    if (count === 0) throw notClaimed(domain);
    await recordAudit(tx, {
      teamId,
      actorId: person,
      actorLabel: await personLabel(tx, person),
      action: "domain.deleted",
      target: domain,
    });
  });
}

/**
 * POST /v1/teams/{team_id}/domains/{domain}/verify (admin): looks for the TXT record at `_verbatim.<domain>` and at
 * the domain itself. Found: the domain is the team's (409 `domain_taken` if another team verified it first); not
 * found: 422 `domain_unverified`, and nothing changes. A verified domain is checked again on each ask.
 */
export async function verifyDomain(teamId: string, personId: string | null, domain: string): Promise<DomainOut> {
  const person = requirePerson(personId);
  const db = await getDb();
  await roleIn(db, teamId, person, TEAM_ACTIONS.manageDomains);
  const row = await db.teamDomain.findUnique({ where: { teamId_domain: { teamId, domain } } });
  if (!row) throw notClaimed(domain);
  const expected = `${TXT_PREFIX}${row.token}`;
  const found = (await Promise.all([txtRecords(`${TXT_LABEL}.${domain}`), txtRecords(domain)])).flat();
  if (!found.some((record) => record.trim() === expected))
    throw new ApiError(
      "domain_unverified",
      `No TXT record "${expected}" at ${TXT_LABEL}.${domain} or ${domain}` +
        (found.length ? ` (found ${found.length} other TXT record${found.length === 1 ? "" : "s"}).` : "."),
    );
  if (row.verifiedAt) return serialize(row);
  try {
    const verified = await db.$transaction(async (tx) => {
      const updated = await tx.teamDomain.update({
        where: { id: row.id },
        data: { verifiedDomain: domain, verifiedAt: new Date() },
      });
      await recordAudit(tx, {
        teamId,
        actorId: person,
        actorLabel: await personLabel(tx, person),
        action: "domain.verified",
        target: domain,
        data: { role: row.role },
      });
      return updated;
    });
    return serialize(verified);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError("domain_taken", `Another team has verified ${domain}.`);
    throw error;
  }
}
