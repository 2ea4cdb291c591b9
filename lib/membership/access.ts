import { lockUntilCommit } from "@/lib/db/advisory-lock";
import { errors } from "@/lib/http/errors";
import { fieldRole, requiredRole } from "@/lib/http/permissions";
import type { Prisma, TeamRole } from "@/lib/generated/prisma/client";
import { atLeast } from "@/lib/roles/ladder";

type Tx = Prisma.TransactionClient;

/** Every change to a team's memberships (and to its key) holds the team's lock, so its rules hold at once. */
export async function lockTeam(tx: Tx, teamId: string): Promise<void> {
  await lockUntilCommit(tx, `team:${teamId}`);
}

const keyRow = fieldRole("api_keys");
/** The least role that may make, regenerate and read the team's API key: the permission table's row for keys. */
export const KEY_ROLE: TeamRole = keyRow === "person" ? "viewer" : keyRow;

const webhookRow = fieldRole("webhooks");
/** The least role that may register a team's webhook endpoints and read their secrets: the table's row for them. */
export const WEBHOOK_ROLE: TeamRole = webhookRow === "person" ? "viewer" : webhookRow;

const destinationRow = fieldRole("destinations");
/** The least role that may add and remove a team's export destinations: the table's row for them. */
export const DESTINATION_ROLE: TeamRole = destinationRow === "person" ? "viewer" : destinationRow;

const alertRow = requiredRole("POST", "/v1/alerts", "use");
/** The least role that may save a team's alert (and so was shown its feed URL as its maker). */
export const ALERT_ROLE: TeamRole = alertRow === null || alertRow === "person" ? "viewer" : alertRow;

/** The person behind a credential; team management needs one (a team's own API key has none). */
export function requirePerson(personId: string | null): string {
  if (!personId)
    throw errors.forbidden("Managing teams needs a person: sign in, or use your personal account's API key.");
  return personId;
}

export const teamNotFound = () => errors.notFound("No team with this id.");

/**
 * The person's role in the team, if it is at least `needed`: a team they are not in (or an id that is not a
 * team's) is a 404, never a 403, so ids of other teams tell nothing; a lower role is a 403 naming the one needed.
 */
export async function roleIn(tx: Tx, teamId: string, personId: string, needed: TeamRole): Promise<TeamRole> {
  const membership = await tx.membership.findUnique({
    where: { teamId_userId: { teamId, userId: personId } },
    select: { role: true },
  });
  if (!membership) throw teamNotFound();
  if (!atLeast(membership.role, needed))
    throw errors.forbidden(`This needs the ${needed} role in the team; yours is ${membership.role}.`);
  return membership.role;
}

/** How a person is named in the audit trail (kept when they leave): their e-mail, else their name. */
export async function personLabel(tx: Tx, personId: string): Promise<string> {
  const person = await tx.user.findUnique({ where: { id: personId }, select: { email: true, name: true } });
  return person?.email ?? person?.name ?? personId;
}
