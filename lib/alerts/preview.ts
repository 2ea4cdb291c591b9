import { getDb, type Db } from "@/lib/db/client";
import { Prisma, type Alert } from "@/lib/generated/prisma/client";
import { errors } from "@/lib/http/errors";
import { configuredEmbedder } from "@/lib/embeddings/registry";
import { momentsInTranscript, type MomentRow } from "@/lib/search/find-moments";
import { passageVisibility, type SearchScope } from "@/lib/search/search-statement";
import type { AlertMatchedOut } from "@/lib/alerts/events";
import { alertTerms } from "@/lib/alerts/alert-terms";
import { alertCloseness } from "@/lib/alerts/closeness";
import { checkScope, queryVector, type AlertCaller } from "@/lib/alerts/manage-alerts";
import { embedTranscript, keywordQuery, matched, meaningMoments } from "@/lib/alerts/match-transcript";
import { readingScope, scopeAccount } from "@/lib/alerts/scope";
import type { CreateAlertRequest, PreviewOut } from "@/lib/alerts/schemas";

// What an alert would have matched in the last 30 days: the transcripts that came into its scope then (entries
// done, publications, a chosen follow's items), newest first, at most PREVIEW_TRANSCRIPTS of them, asked as a new
// transcript is (match-transcript.ts): by words, those holding one of its keys, by the search as its owner; by
// meaning, by the search's own decision (answerByMeaning) within them. Of a saved alert, or of one before it is saved.

const PREVIEW_DAYS = 30;
export const PREVIEW_TRANSCRIPTS = 200;
const PREVIEW_MATCHES = 20;

/** What a preview reads of an alert: saved, or the request to save one. */
type Draft = Pick<Alert, "userId" | "scopeKind" | "scopeIds" | "mode" | "query" | "closeness" | "embedder">;

async function recentTranscripts(db: Db, alert: Draft): Promise<string[]> {
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
 * Of `ids`, those whose passages the alert's owner may see hold one of its keys (`terms`): seen as the search sees
 * them for the scope readingScope gives (the scope account's library, or the published transcripts as their
 * publishers corrected them), so a word only in someone else's private correction costs no search: the work would
 * tell it is there.
 */
async function holdingKeys(db: Db, alert: Draft, terms: readonly string[], ids: string[]): Promise<Set<string>> {
  const account = scopeAccount(alert);
  if (account === null && alert.scopeKind !== "public") return new Set();
  const { visible } = passageVisibility({ user: account === null ? null : Prisma.sql`${account}` });
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT p."transcriptId" AS id FROM "SearchPassage" p, unnest(p."tsv") AS u
    WHERE p."transcriptId" = ANY(${ids}) AND ${visible} AND u.lexeme = ANY(${[...terms]}::text[])`;
  return new Set(rows.map((r) => r.id));
}

/** Each transcript's moments that match `alert`, of those of `ids` it may read now. */
async function matchesAmong(db: Db, alert: Draft, ids: string[]): Promise<Map<string, MomentRow[]>> {
  const scopes = new Map<string, { scope: SearchScope; ids: string[] }>();
  for (const transcriptId of ids) {
    const scope = await readingScope(db, alert, transcriptId);
    if (!scope) continue;
    const key = JSON.stringify(scope);
    const group = scopes.get(key) ?? { scope, ids: [] };
    group.ids.push(transcriptId);
    scopes.set(key, group);
  }
  const found = new Map<string, MomentRow[]>();
  const embedder = configuredEmbedder();
  for (const { scope, ids: within } of scopes.values()) {
    if (alert.mode === "meaning") {
      if (!embedder || !(await embedder.ready())) continue;
      // As a check does: a passage the background job has not reached yet is embedded now.
      for (const id of within) await embedTranscript(db, id, embedder);
      for (const [id, rows] of await meaningMoments(alert, scope, within, embedder)) found.set(id, rows);
    } else
      for (const transcriptId of within) {
        const rows = await momentsInTranscript(scope, keywordQuery(alert.query), transcriptId);
        if (rows.length > 0) found.set(transcriptId, rows);
      }
  }
  return found;
}

async function preview(db: Db, alert: Draft, terms: readonly string[]): Promise<PreviewOut> {
  const recent = await recentTranscripts(db, alert);
  const held = alert.mode === "words" && recent.length > 0 ? await holdingKeys(db, alert, terms, recent) : null;
  const found = await matchesAmong(db, alert, held ? recent.filter((t) => held.has(t)) : recent);
  const matches: AlertMatchedOut[] = [];
  // Newest first, as the transcripts came.
  for (const transcriptId of recent) {
    const rows = found.get(transcriptId);
    if (!rows || matches.length >= PREVIEW_MATCHES) continue;
    const scope = (await readingScope(db, alert, transcriptId))!;
    matches.push(matched(scope, alert.query, rows));
  }
  return { matches, matched: found.size, transcripts: recent.length };
}

/** POST /v1/alerts/{id}/preview. */
export async function previewAlert(userId: string, id: string): Promise<PreviewOut> {
  const db = await getDb();
  const alert = await db.alert.findFirst({ where: { id, userId } });
  if (!alert) throw errors.notFound("No alert with that id.");
  const terms = await db.alertTerm.findMany({ where: { alertId: id }, select: { term: true } });
  return preview(
    db,
    alert,
    terms.map((t) => t.term),
  );
}

/** POST /v1/alerts/preview: what an alert would have matched, before it is saved (nothing is kept). */
export async function previewNewAlert(caller: AlertCaller, request: CreateAlertRequest): Promise<PreviewOut> {
  const db = await getDb();
  const scopeIds = await checkScope(db, caller, request.scope);
  const meaning = request.mode === "meaning" ? await queryVector(request.query) : null;
  const draft: Draft = {
    userId: caller.userId,
    scopeKind: request.scope.kind,
    scopeIds,
    mode: request.mode,
    query: request.query,
    closeness: meaning ? alertCloseness(meaning.profile, request.closeness) : null,
    embedder: meaning?.embedder ?? null,
  };
  return preview(db, draft, request.mode === "words" ? await alertTerms(db, request.query) : []);
}
