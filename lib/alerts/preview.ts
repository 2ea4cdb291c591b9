import { getDb, type Db } from "@/lib/db/client";
import { Prisma, type Alert } from "@/lib/generated/prisma/client";
import { errors } from "@/lib/http/errors";
import { configuredEmbedder } from "@/lib/embeddings/registry";
import { momentsInTranscript } from "@/lib/search/find-moments";
import { passageVisibility, type SearchScope } from "@/lib/search/search-statement";
import type { AlertMatchedOut } from "@/lib/alerts/events";
import { keywordQuery, matched, meaningMoments } from "@/lib/alerts/match-transcript";
import { readingScope, scopeAccount } from "@/lib/alerts/scope";
import type { PreviewOut } from "@/lib/alerts/schemas";

// What an alert would have matched in the last 30 days: the transcripts that came into its scope then (entries
// done, publications, a chosen follow's items), newest first, at most PREVIEW_TRANSCRIPTS of them, those holding
// one of its keys asked by the search as its owner, exactly as a new transcript is (match-transcript.ts).

const PREVIEW_DAYS = 30;
export const PREVIEW_TRANSCRIPTS = 200;
const PREVIEW_MATCHES = 20;

async function recentTranscripts(db: Db, alert: Alert): Promise<string[]> {
  const since = new Date(Date.now() - PREVIEW_DAYS * 86_400_000);
  const rows =
    alert.scopeKind === "public"
      ? await db.$queryRaw<{ id: string }[]>`
          SELECT "transcriptId" AS id FROM "Publication" WHERE "publishedAt" >= ${since}
          GROUP BY "transcriptId" ORDER BY max("publishedAt") DESC LIMIT ${PREVIEW_TRANSCRIPTS}`
      : alert.scopeKind === "follows"
        ? await db.$queryRaw<{ id: string }[]>`
          SELECT i."transcriptId" AS id FROM "FollowItem" i JOIN "Follow" f ON f."id" = i."followId"
          WHERE f."userId" = ${alert.userId} AND i."followId" = ANY(${alert.scopeIds}) AND i."status" = 'done'
            AND i."transcriptId" IS NOT NULL AND i."updatedAt" >= ${since}
          GROUP BY i."transcriptId" ORDER BY max(i."updatedAt") DESC LIMIT ${PREVIEW_TRANSCRIPTS}`
        : await db.$queryRaw<{ id: string }[]>`
          SELECT "transcriptId" AS id FROM "Transcription"
          WHERE "userId" = ${alert.scopeKind === "team" ? (alert.scopeIds[0] ?? "") : alert.userId} AND "state" = 'done'
            AND "transcriptId" IS NOT NULL AND "updatedAt" >= ${since}
          GROUP BY "transcriptId" ORDER BY max("updatedAt") DESC LIMIT ${PREVIEW_TRANSCRIPTS}`;
  return rows.map((r) => r.id);
}

/**
 * Of `ids`, those whose passages the alert's owner may see hold one of its keys: seen as the search sees them for
 * the scope readingScope gives (the scope account's library, or the published transcripts as their publishers
 * corrected them), so a word only in someone else's private correction costs no search: the work would tell it is there.
 */
async function holdingKeys(db: Db, alert: Alert, ids: string[]): Promise<Set<string>> {
  const account = scopeAccount(alert);
  if (account === null && alert.scopeKind !== "public") return new Set();
  const { visible } = passageVisibility({ user: account === null ? null : Prisma.sql`${account}` });
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT p."transcriptId" AS id FROM "SearchPassage" p, unnest(p."tsv") AS u
    WHERE p."transcriptId" = ANY(${ids}) AND ${visible}
      AND u.lexeme IN (SELECT "term" FROM "AlertTerm" WHERE "alertId" = ${alert.id})`;
  return new Set(rows.map((r) => r.id));
}

/** POST /v1/alerts/{id}/preview. */
export async function previewAlert(userId: string, id: string): Promise<PreviewOut> {
  const db = await getDb();
  const alert = await db.alert.findFirst({ where: { id, userId } });
  if (!alert) throw errors.notFound("No alert with that id.");
  const recent = await recentTranscripts(db, alert);
  const embedder = configuredEmbedder();
  const held = alert.mode === "words" && recent.length > 0 ? await holdingKeys(db, alert, recent) : null;
  const ids = held ? recent.filter((t) => held.has(t)) : recent;
  const out: AlertMatchedOut[] = [];
  for (const transcriptId of ids) {
    if (out.length >= PREVIEW_MATCHES) break;
    const scope: SearchScope | null = await readingScope(db, alert, transcriptId);
    if (!scope) continue;
    const rows =
      alert.mode === "meaning"
        ? embedder
          ? await meaningMoments(db, alert, scope, transcriptId, embedder)
          : []
        : await momentsInTranscript(scope, keywordQuery(alert.query), transcriptId);
    if (rows.length > 0) out.push(matched(scope, alert.query, rows));
  }
  return { matches: out };
}
