import type { Db } from "@/lib/db/client";
import type { Alert } from "@/lib/generated/prisma/client";
import type { SearchScope } from "@/lib/search/search-statement";

// Whose eyes an alert reads with: the search's own scopes (a library, or the published transcripts), so what it
// may match is what its owner's search finds, corrections and visibility by the search's rule. A team's library
// only while the person is still a member; a follows scope only the transcripts of those follows' items.

/** The account whose library the alert watches (its AlertTerm key); null: the published transcripts. */
export function scopeAccount(alert: Pick<Alert, "userId" | "scopeKind" | "scopeIds">): string | null {
  if (alert.scopeKind === "public") return null;
  if (alert.scopeKind === "team") return alert.scopeIds[0] ?? null;
  return alert.userId;
}

/**
 * The search scope the alert reads `transcriptId` in, now; null when it may not read it at all (a team left, a
 * transcript no chosen follow found).
 */
export async function readingScope(
  db: Db,
  alert: Pick<Alert, "userId" | "scopeKind" | "scopeIds">,
  transcriptId: string,
): Promise<SearchScope | null> {
  if (alert.scopeKind === "public") return { kind: "public" };
  if (alert.scopeKind === "library") return { kind: "library", userId: alert.userId };
  if (alert.scopeKind === "team") {
    const teamId = alert.scopeIds[0];
    if (!teamId) return null;
    const member = await db.membership.findUnique({
      where: { teamId_userId: { teamId, userId: alert.userId } },
      select: { role: true },
    });
    return member ? { kind: "library", userId: teamId } : null;
  }
  const found = await db.followItem.findFirst({
    where: { transcriptId, status: "done", followId: { in: alert.scopeIds }, follow: { userId: alert.userId } },
    select: { id: true },
  });
  return found ? { kind: "library", userId: alert.userId } : null;
}

/**
 * Which of `transcriptIds` the alert may still read now, as it would be asked today: a match kept from before an
 * entry was deleted, a transcript unpublished or a team left is not shown again.
 */
export async function stillVisible(
  db: Db,
  alert: Pick<Alert, "userId" | "scopeKind" | "scopeIds">,
  transcriptIds: readonly string[],
): Promise<Set<string>> {
  const ids = [...new Set(transcriptIds)];
  if (ids.length === 0) return new Set();
  let rows: { transcriptId: string }[];
  if (alert.scopeKind === "public")
    rows = await db.$queryRaw`
      SELECT DISTINCT "transcriptId" FROM "Publication"
      WHERE "transcriptId" = ANY(${ids}::text[]) AND "publishedAt" IS NOT NULL`;
  else {
    const account = alert.scopeKind === "team" ? alert.scopeIds[0] : alert.userId;
    if (!account) return new Set();
    if (alert.scopeKind === "team") {
      const member = await db.membership.findUnique({
        where: { teamId_userId: { teamId: account, userId: alert.userId } },
        select: { role: true },
      });
      if (!member) return new Set();
    }
    rows = await db.$queryRaw`
      SELECT DISTINCT "transcriptId" FROM "Transcription"
      WHERE "userId" = ${account} AND "state" = 'done' AND "transcriptId" = ANY(${ids}::text[])`;
  }
  return new Set(rows.map((row) => row.transcriptId));
}
