import { getDb } from "@/lib/db/client";

/**
 * The teams of `personId` whose members come from an identity provider by SCIM (they hold a SCIM token): the Team
 * page offers them no verified domains, which would let in people the provider does not list.
 */
export async function scimProvisionedTeams(personId: string): Promise<string[]> {
  const db = await getDb();
  const tokens = await db.scimToken.findMany({
    where: { team: { teamMembers: { some: { userId: personId } } } },
    select: { teamId: true },
  });
  return tokens.map((token) => token.teamId);
}
