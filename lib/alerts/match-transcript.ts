import { getDb, type Db } from "@/lib/db/client";
import type { Alert } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";
import { cjkNeedles } from "@/lib/search/cjk";
import type { Embedder } from "@/lib/embeddings/embedder";
import { configuredEmbedder, configuredSecondStage } from "@/lib/embeddings/registry";
import type { SecondStage } from "@/lib/embeddings/second-stage";
import { embedMissingPassages } from "@/lib/search/embed-passages";
import { momentsInTranscript, MOMENTS_PER_TRANSCRIPT, type MomentRow } from "@/lib/search/find-moments";
import { momentRows } from "@/lib/search/meaning";
import { patient, upgradeTranscript } from "@/lib/search/second-stage";
import { answerByMeaning, markAnsweringLines } from "@/lib/search/meaning-answer";
import type { SearchScope } from "@/lib/search/search-statement";
import { serializeMoment } from "@/lib/search/serializers";
import type { SearchQuery } from "@/lib/search/schemas";
import type { AlertMatchedOut } from "@/lib/alerts/events";
import { recordMatch } from "@/lib/alerts/record-match";
import { readingScope } from "@/lib/alerts/scope";

// One transcript newly in an account's reach (a library entry done, a publication live, a correction served),
// checked against the stored alerts as a percolator does: its own distinct lexemes (as the index stores them)
// joined with the alerts' keys (AlertTerm), only the keys of the libraries it is now in and, when published, of
// the public alerts, so the candidates are the alerts that could match, whatever the number stored. Each
// candidate is then asked by the search itself, over that one transcript, as its owner (visibility, corrections,
// a team left: the search's rule), so nobody else's private transcript or correction can match. Alerts by
// meaning have no words to key: those of the same scopes are compared with the transcript's passage vectors.

export interface AlertCheck {
  transcriptId: string;
  /** The account whose library it entered (or who published or corrected it). */
  accountId: string;
  reason: "library" | "published" | "corrected";
}

/** Meaning alerts compared per check, at most (those watching the libraries it entered and public ones). */
export const MEANING_CANDIDATES = 1_000;

/** The alerts keyed by a lexeme the transcript holds, of the scopes it is now in, not matched yet. */
export async function wordCandidates(db: Db, check: AlertCheck, published: boolean): Promise<Alert[]> {
  return db.$queryRaw<Alert[]>`
    SELECT a.* FROM "Alert" a WHERE a."id" IN (
      SELECT k."alertId" FROM (SELECT DISTINCT u.lexeme FROM "SearchPassage" p, unnest(p."tsv") AS u
                                WHERE p."transcriptId" = ${check.transcriptId}) t
      JOIN "AlertTerm" k ON k."term" = t.lexeme
        AND (k."scopeAccount" = ${check.accountId} OR (${published} AND k."scopeAccount" IS NULL)))
    AND a."pausedAt" IS NULL AND a."mode" = 'words'
    AND NOT EXISTS (SELECT 1 FROM "AlertMatch" m WHERE m."alertId" = a."id" AND m."transcriptId" = ${check.transcriptId})`;
}

async function meaningCandidates(db: Db, check: AlertCheck, published: boolean): Promise<Alert[]> {
  return db.$queryRaw<Alert[]>`
    SELECT a.* FROM "Alert" a WHERE a."mode" = 'meaning' AND a."pausedAt" IS NULL
      AND ((a."scopeKind" IN ('library', 'follows') AND a."userId" = ${check.accountId})
           OR (a."scopeKind" = 'team' AND a."scopeIds"[1] = ${check.accountId})
           OR (${published} AND a."scopeKind" = 'public'))
      AND NOT EXISTS (SELECT 1 FROM "AlertMatch" m WHERE m."alertId" = a."id" AND m."transcriptId" = ${check.transcriptId})
    LIMIT ${MEANING_CANDIDATES}`;
}

export const keywordQuery = (q: string): SearchQuery => ({
  q,
  platform: null,
  lang: null,
  limit: 3,
  prefix: false,
  mode: "keyword",
  cursor: null,
});

/**
 * The moments of each of `transcriptIds` that answer the alert's question by meaning as the search decides it
 * (answerByMeaning: the same stages, the same "nothing close", for each transcript apart), as its scope may see them,
 * at least its closeness alike; a transcript with none is left out. Each moment is at its line that answers.
 */
export async function meaningMoments(
  alert: Pick<Alert, "query" | "closeness" | "embedder">,
  scope: SearchScope,
  transcriptIds: readonly string[],
  embedder: Embedder,
  { secondStage = configuredSecondStage() }: { secondStage?: SecondStage | null } = {},
): Promise<Map<string, MomentRow[]>> {
  const out = new Map<string, MomentRow[]>();
  if (alert.embedder !== embedder.model || transcriptIds.length === 0) return out;
  const answer = await answerByMeaning(
    scope,
    { q: alert.query, platform: null, lang: null },
    MOMENTS_PER_TRANSCRIPT * transcriptIds.length,
    embedder,
    { within: transcriptIds, secondStage },
  );
  const least = alert.closeness ?? embedder.profile.close;
  const close = answer.nearest.filter((n) => n.score >= least);
  if (close.length === 0) return out;
  const found = new Map(
    (
      await momentRows(
        scope,
        close.map((n) => n.pid),
      )
    ).map((row) => [row.pid, row]),
  );
  const rows = close.flatMap(({ pid, score, closeness }): MomentRow[] => {
    const row = found.get(pid);
    return row ? [{ ...row, rank: score, matched: "meaning", closeness }] : [];
  });
  await markAnsweringLines(rows, answer.vector, embedder);
  for (const row of rows) out.set(row.transcriptId, [...(out.get(row.transcriptId) ?? []), row]);
  return out;
}

/** The transcript's passages' vectors made now where the background job has not made them yet. */
export async function embedTranscript(db: Db, transcriptId: string, embedder: Embedder): Promise<void> {
  const [range] = await db.$queryRaw<{ low: bigint | null; high: bigint | null }[]>`
    SELECT min(p."pid") AS low, max(p."pid") AS high FROM "SearchPassage" p WHERE p."transcriptId" = ${transcriptId}`;
  if (range?.low == null || range.high == null) return;
  for (;;) {
    const done = await embedMissingPassages(embedder, 256, { above: range.low - 1n, below: range.high + 1n });
    if (done.embedded < 256) break;
  }
}

/**
 * The second stage, once it has read the transcript's passages that the background upgrade has not reached yet: the
 * first stage alone fires on too much (its closeness is that of words, not of what is said). Null when it is off or
 * failed (the check goes on by the first stage).
 */
async function readWhole(db: Db, transcriptId: string, stage: SecondStage | null): Promise<SecondStage | null> {
  if (!stage || !(await stage.ready())) return null;
  try {
    const waiting = patient(stage);
    await upgradeTranscript(db, waiting, transcriptId);
    return waiting;
  } catch (error) {
    log.warn({ err: error, transcriptId }, "the second stage could not read the transcript; checked by the first");
    return null;
  }
}

export function matched(scope: SearchScope, query: string, rows: MomentRow[]): AlertMatchedOut {
  const moments = rows.map((row) => serializeMoment(row, scope, cjkNeedles(query)));
  const first = moments[0]!;
  return {
    transcript_id: first.transcript_id,
    title: first.title,
    platform: first.platform,
    source_url: first.source_url,
    moments: moments.map((m) => ({
      start: m.start,
      end: m.end,
      segment_index: m.segment_index,
      text: m.snippet,
      links: m.links,
    })),
    matched_at: new Date().toISOString(),
  };
}

/** Checks one transcript against the alerts that could match it; answers how many matched (each once). */
export async function checkTranscript(
  check: AlertCheck,
  embedder: Embedder | null = configuredEmbedder(),
  secondStage: SecondStage | null = configuredSecondStage(),
): Promise<number> {
  const db = await getDb();
  const [state] = await db.$queryRaw<{ exists: boolean; published: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "Transcript" WHERE "id" = ${check.transcriptId}) AS exists,
           EXISTS (SELECT 1 FROM "Publication" WHERE "transcriptId" = ${check.transcriptId} AND "publishedAt" IS NOT NULL)
             AS published`;
  if (!state?.exists) return 0;
  // Entering a library does not make a published transcript new to everyone: the public alerts had their turn
  // when it was published (or corrected).
  const forPublicAlerts = state.published && check.reason !== "library";
  const words = await wordCandidates(db, check, forPublicAlerts);
  const meaning = embedder ? await meaningCandidates(db, check, forPublicAlerts) : [];
  if (meaning.length > 0 && embedder && (await embedder.ready()))
    await embedTranscript(db, check.transcriptId, embedder);
  const second = meaning.length > 0 ? await readWhole(db, check.transcriptId, secondStage) : null;
  let count = 0;
  for (const alert of [...words, ...meaning]) {
    try {
      const scope = await readingScope(db, alert, check.transcriptId);
      if (!scope) continue;
      const rows =
        alert.mode === "meaning"
          ? ((await meaningMoments(alert, scope, [check.transcriptId], embedder!, { secondStage: second })).get(
              check.transcriptId,
            ) ?? [])
          : await momentsInTranscript(scope, keywordQuery(alert.query), check.transcriptId);
      if (rows.length === 0) continue;
      if (await recordMatch(alert, matched(scope, alert.query, rows))) count++;
    } catch (error) {
      // One alert's failure (its query no longer reads) never keeps the others from their matches.
      log.warn({ err: error, alertId: alert.id, transcriptId: check.transcriptId }, "alert check failed");
    }
  }
  return count;
}
