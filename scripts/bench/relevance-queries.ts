// The search-relevance bench's 50 judged queries (search-relevance.ts), chosen from the data-scale corpus's own
// statistics: frequent, ordinary and rare words, two- and three-word queries, quoted phrases.
import { createHash } from "node:crypto";
import { BUSY, englishWords, type ScaleDb } from "./data-scale-db";

/** Rare queries: at most this many passages match them. */
const RARE = 8;
const RARE_MATCHES = 15;

export interface Judged {
  kind: "frequent" | "ordinary" | "rare" | "two words" | "three words" | "phrase";
  q: string;
}

export const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Words the english configuration reads as one lexeme each: surface word → lexeme. */
async function lexemesOf(db: ScaleDb, words: string[]): Promise<Map<string, string>> {
  const { rows } = await db.pool.query<{ w: string; lexemes: string[] }>(
    `SELECT w, tsvector_to_array(to_tsvector('english', w)) AS lexemes FROM unnest($1::text[]) AS w`,
    [words],
  );
  return new Map(rows.filter((r) => r.lexemes.length === 1).map((r) => [r.w, r.lexemes[0]!]));
}

/**
 * The 50 judged queries, from the corpus's statistics (how many passages hold each word, ts_stat) and the word
 * stream the passages are windows of: the same on every run over the same seed. Words of a class are taken in
 * the order of their digest, a fixed shuffle.
 */
export async function judgedQueries(db: ScaleDb): Promise<Judged[]> {
  const stream = englishWords();
  // With the seed's own frequent and rare words, which it adds to the stream's.
  const surface = [...new Set([...stream, "ocean", "zeppelin"])].filter((w) => /^[a-z]{3,}$/.test(w));
  const lexeme = await lexemesOf(db, surface);
  const { rows } = await db.pool.query<{ word: string; ndoc: number }>(
    `SELECT word, ndoc FROM ts_stat('SELECT tsv FROM "TranscriptPassage"')`,
  );
  const ndocOfLexeme = new Map(rows.map((r) => [r.word, r.ndoc]));
  const ndoc = new Map([...lexeme].map(([w, l]) => [w, ndocOfLexeme.get(l) ?? 0]));
  // One surface word per lexeme: the first in alphabetical order.
  const byLexeme = new Map<string, string>();
  for (const w of [...lexeme.keys()].sort()) if (!byLexeme.has(lexeme.get(w)!)) byLexeme.set(lexeme.get(w)!, w);
  const words = [...byLexeme.values()].sort((a, b) => digest(a).localeCompare(digest(b)));
  const pick = (n: number, min: number, max: number) =>
    words.filter((w) => ndoc.get(w)! >= min && ndoc.get(w)! <= max).slice(0, n);
  const mostFrequent = [...words].sort((a, b) => ndoc.get(b)! - ndoc.get(a)! || a.localeCompare(b)).slice(0, 5);
  const judged: Judged[] = [
    // The 5 words in the most passages (where the share of them a bound on candidates reaches is smallest), 5 more.
    ...[
      ...mostFrequent,
      ...pick(10, 1000, Infinity)
        .filter((w) => !mostFrequent.includes(w))
        .slice(0, 5),
    ].map((q) => ({
      kind: "frequent" as const,
      q,
    })),
    ...pick(10, 20, 500).map((q) => ({ kind: "ordinary" as const, q })),
    ...pick(RARE, 1, RARE_MATCHES).map((q) => ({ kind: "rare" as const, q })),
  ];
  // Multi-word queries from the stream at evenly spaced places: the content words (one lexeme each) that follow.
  const content = (w: string) => lexeme.has(w.toLowerCase());
  const at = (i: number, n: number) => Math.floor(((i + 1) * (stream.length - 40)) / (n + 1));
  const following = (from: number, count: number, within: number) => {
    const words = stream.slice(from, from + within).filter(content);
    return words.filter((w, i) => words.findIndex((v) => lexeme.get(v) === lexeme.get(w)) === i).slice(0, count);
  };
  // Every word of the stream is in about a hundred passages (each place of it in the windows of 20 words that
  // start at the 20 places before it), so the rare queries besides the seed's rare word are two words that
  // only the windows spanning both hold: about 19 places apart.
  for (let i = 0; judged.length < 10 + 10 + RARE && i < 400; i++) {
    const from = at(i, 400);
    const [first] = following(from, 1, 10);
    if (!first) continue;
    const start = stream.indexOf(first, from);
    const last = stream
      .slice(start + 16, start + 20)
      .filter(content)
      .findLast((w) => lexeme.get(w) !== lexeme.get(first));
    if (!last) continue;
    const q = `${first} ${last}`;
    const { all } = await matchCounts(db, q);
    if (all >= 1 && all <= RARE_MATCHES) judged.push({ kind: "rare", q });
  }
  for (let i = 0; i < 8; i++) judged.push({ kind: "two words", q: following(at(i, 8), 2, 12).join(" ") });
  for (let i = 0; i < 6; i++) judged.push({ kind: "three words", q: following(at(i, 6) + 5, 3, 14).join(" ") });
  // Phrases: from a content word to the next one, at most one word between them, quoted.
  for (let i = 0; i < 8; i++) {
    let from = at(i, 8) + 9;
    for (;;) {
      while (!content(stream[from]!)) from++;
      const next = stream.slice(from + 1, from + 3).findIndex(content);
      if (next !== -1) {
        judged.push({ kind: "phrase", q: `"${stream.slice(from, from + next + 2).join(" ")}"` });
        break;
      }
      from++;
    }
  }
  return judged;
}

/** Passages matching `q` (as the english configuration reads it): published ones, and the busy user's. */
export async function matchCounts(db: ScaleDb, q: string): Promise<{ all: number; library: number }> {
  const { rows } = await db.pool.query<{ all: number; library: number }>(
    `SELECT count(*)::int AS all,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM "Transcription" h WHERE h."transcriptId" = p."transcriptId"
              AND h."userId" = $2 AND h."state" = 'done'))::int AS library
     FROM "TranscriptPassage" p WHERE p."tsv" @@ websearch_to_tsquery('english', $1)`,
    [q, BUSY],
  );
  return rows[0]!;
}
