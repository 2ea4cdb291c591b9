import { dbKind, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import { runSearchStatement, runStatement } from "@/lib/search/queries";
import {
  passageVisibility,
  scopePassagesSql,
  TRANSCRIPT_PASSAGES,
  type SearchScope,
} from "@/lib/search/search-statement";

// The vocabulary as the caller may see it: which words of the index a passage they may see holds, how many such
// passages hold each, which begin a word being typed, which are spelt like a word. Everything search reads of
// words is read here, so that nothing anyone else holds privately (an upload, a correction, a transcript no one
// may see any more) shows in an answer: not as a word a prefix stands for, a suggestion, a count or a rank.
//
// Two ways, by the scope's size (search-plan.ts SCOPE_MAX_PASSAGES, counted up to that bound):
// - a small scope (most libraries and shows) is read from its own passages: exact, its cost the scope's;
// - a larger one from the index's vocabulary ("SearchTerm") and each word's postings, each posting's passage
//   probed for visibility, stopping at the visible ones needed. Bounded: a word's postings are read best first up
//   to a fixed number (below), so only a word with more postings than that (others' included) could be counted
//   short, and only a prefix that begins more than PREFIX_SCAN words could miss one.

/** Postings of one word probed for visible passages at most (its df, whether it is held). */
export const DF_EXAMINED = 20_000;
/** The words of the vocabulary a word begun is looked for among (a large scope): a one-letter prefix begins thousands. */
const PREFIX_SCAN = 500;
/** Postings probed per word begun for one the caller may see (a large scope). */
const PREFIX_PROBE = 32;
/** Trigram-alike words of the vocabulary looked at per word to correct, before keeping the visible ones. */
const SPELLING_SCAN = 48;
/** Postings probed per spelling for visible passages, and counted (its frequency decides between equals). */
const SPELLING_PROBE = 1_000;
const SPELLING_COUNT = 20;
/** Spellings of a large scope probed per statement. */
const SPELLING_BATCH = 16;
/** Passages read for the ways a word is written. */
const WRITTEN_PASSAGES = 4;

/** Where a word's vocabulary is read: the scope, and whether it is small enough to be read from its passages. */
export interface Vocabulary {
  scope: SearchScope;
  small: boolean;
  /**
   * A library whose owner has corrected nothing (false) reads the transcripts' passages alone, as the search
   * statement does: a posting's passage is then one lookup. Unknown (undefined) reads every passage.
   */
  corrects?: boolean;
}

/** Statement parameters with the scope's placeholders ($1…) and a way to add more. */
function statement({ scope, corrects = true }: Vocabulary) {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const user = scope.kind === "library" ? param(scope.userId) : null;
  const show = scope.kind === "public" && scope.show ? param(scope.show) : null;
  const alone = user !== null && !corrects;
  const { visible } = passageVisibility({ user, show, corrects: !alone });
  return {
    params,
    param,
    visible,
    passages: scopePassagesSql({ user, show }),
    source: alone ? TRANSCRIPT_PASSAGES : `"SearchPassage"`,
  };
}

/**
 * Runs one of these statements under the search statement's settings (planner-settings.ts): their estimates, a
 * probe per posting, pass jit_above_cost while they stop at a bound (compiling cost 74 ms of a 126 ms statement).
 */
async function read<Row>(db: Db, text: string, params: unknown[]): Promise<Row[]> {
  // PGlite has no JIT, and a transaction of its own would cost each statement a turn of the embedded database.
  if ((await dbKind()) === "pglite") return runStatement<Row>(db, { text, params });
  return runSearchStatement<Row>(db, { text, params }, searchPlannerSettings({ timeoutMs: env().SEARCH_TIMEOUT_MS }));
}

/** A word of the index as a tsquery that matches it alone (a lexeme, quoted as tsquery's input reads it). */
export function lexemeQuery(term: string, prefix = false): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`;
}

/**
 * The visible passages of the term `termId` (an SQL expression) as "p", its postings best first, at most
 * `examined` of them probed (OFFSET 0: a lookup per posting).
 */
function probedPassages(termId: string, examined: number, visible: string, source = `"SearchPassage"`): string {
  return `(SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = ${termId}
            ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${examined}) c
          CROSS JOIN LATERAL (SELECT p.* FROM ${source} p WHERE p."pid" = c."pid" OFFSET 0) p
          WHERE ${visible}`;
}

/**
 * How many passages the caller may see hold each term (by SearchTerm id), counted up to `bound`; a term none
 * holds is left out.
 */
export async function visibleCounts(
  db: Db,
  vocabulary: Vocabulary,
  termIds: readonly number[],
  bound: number,
  examined = DF_EXAMINED,
): Promise<Map<number, number>> {
  if (termIds.length === 0) return new Map();
  const { small } = vocabulary;
  const { params, param, visible, passages, source } = statement(vocabulary);
  const ids = param([...termIds]);
  const text = small
    ? `SELECT sp."termId" AS id, least(count(*), ${param(bound)}::int)::int AS n
         FROM (${passages}) p JOIN "SearchPosting" sp ON sp."pid" = p."pid" AND sp."termId" = ANY (${ids}::int[])
         GROUP BY sp."termId"`
    : `SELECT t.id, (SELECT count(*)::int FROM (SELECT 1 FROM ${probedPassages("t.id", examined, visible, source)}
                                                LIMIT ${param(bound)}::int) AS x) AS n
         FROM unnest(${ids}::int[]) AS t(id)`;
  const rows = await read<{ id: number; n: number }>(db, text, params);
  return new Map(rows.filter((row) => row.n > 0).map((row) => [row.id, row.n]));
}

/**
 * Which of `pairs` (a term's id, a configuration) a passage the caller may see, of that configuration, holds: a
 * word is known as a configuration reads it in passages of that configuration, the only ones its reading matches.
 * Answers the pairs held, as `id:config`.
 */
export async function visiblyHeld(
  db: Db,
  vocabulary: Vocabulary,
  pairs: readonly { id: number; config: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const { small } = vocabulary;
  const { params, param, visible, passages, source } = statement(vocabulary);
  const ids = param(pairs.map((pair) => pair.id));
  const configs = param(pairs.map((pair) => pair.config));
  const text = small
    ? `SELECT DISTINCT t.id, t."config" FROM (${passages}) p
         JOIN "SearchPosting" sp ON sp."pid" = p."pid"
         JOIN unnest(${ids}::int[], ${configs}::text[]) AS t(id, "config") ON t.id = sp."termId" AND t."config" = p."config"`
    : `SELECT t.id, t."config" FROM unnest(${ids}::int[], ${configs}::text[]) AS t(id, "config")
       WHERE EXISTS (SELECT 1 FROM ${probedPassages("t.id", DF_EXAMINED, `p."config" = t."config" AND ${visible}`, source)})`;
  const rows = await read<{ id: number; config: string }>(db, text, params);
  return new Set(rows.map((row) => `${row.id}:${row.config}`));
}

/**
 * The words a passage the caller may see holds that `lexeme` (a word begun, as a configuration reads it) begins,
 * shortest first, at most `limit`. A CJK character begins the bigrams it starts.
 */
export async function visibleTermsBeginning(
  db: Db,
  vocabulary: Vocabulary,
  lexeme: string,
  limit: number,
): Promise<string[]> {
  if (lexeme === "") return [];
  const { small } = vocabulary;
  const { params, param, visible, passages, source } = statement(vocabulary);
  const like = `${param(likePrefix(lexeme))}::text`;
  const text = small
    ? `SELECT term FROM (
         SELECT DISTINCT l AS term FROM (${passages}) p CROSS JOIN LATERAL unnest(tsvector_to_array(p."tsv")) AS l
         WHERE p."tsv" @@ ${param(lexemeQuery(lexeme, true))}::tsquery AND l LIKE ${like}) AS begun
       ORDER BY char_length(term), term LIMIT ${param(limit)}`
    : `SELECT term FROM (SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" LIKE ${like} LIMIT ${PREFIX_SCAN}) AS st
       WHERE EXISTS (SELECT 1 FROM ${probedPassages('st."id"', PREFIX_PROBE, visible, source)})
       ORDER BY char_length(term), term LIMIT ${param(limit)}`;
  const rows = await read<{ term: string }>(db, text, params);
  return rows.map((row) => row.term);
}

/**
 * A word of the index spelt like a word to correct, as passages of one configuration hold it: how alike by
 * trigrams, how many visible passages (of that configuration) hold it, up to SPELLING_COUNT.
 */
export interface Spelling {
  term: string;
  config: string;
  alike: number;
  count: number;
}

/**
 * The words a passage the caller may see holds that are spelt like one of `lexemes` (a word as the
 * configurations read it): alike by trigrams (pg_trgm's `%`, the likeliest SPELLING_SCAN per lexeme), or one of
 * `edits` (words one edit away, which trigrams miss in short words: "wierd" shares two of its trigrams with
 * "weird"). A small scope's are all read from its passages at once; a large scope's are probed for visible
 * passages nearest first (`nearness`, lower is nearer), SPELLING_BATCH at a time, until `enough` are visible.
 */
export async function visibleSpellings(
  db: Db,
  vocabulary: Vocabulary,
  lexemes: readonly string[],
  edits: readonly string[],
  nearness: (term: string) => number,
  enough: number,
): Promise<Spelling[]> {
  const { small } = vocabulary;
  const { params, param, visible, passages, source } = statement(vocabulary);
  const alike = (term: string, words: string) =>
    `(SELECT max(similarity(${term}, x)) FROM unnest(${words}) AS x)::float8`;
  if (small) {
    const words = `${param([...lexemes])}::text[]`;
    return read<Spelling>(
      db,
      `WITH held AS (
         SELECT l AS term, p."config", count(*)::int AS count
         FROM (${passages}) p CROSS JOIN LATERAL unnest(tsvector_to_array(p."tsv")) AS l
         GROUP BY l, p."config")
       SELECT term, "config", ${alike("term", words)} AS alike, least(count, ${SPELLING_COUNT})::int AS count FROM held
       WHERE term % ANY (${words}) OR term IN (SELECT unnest(${param([...edits])}::text[]))`,
      params,
    );
  }
  // The candidates, whoever holds them (the vocabulary's own indexes), then only the visible ones kept.
  const candidates = await read<{ id: number; term: string; alike: number }>(
    db,
    `SELECT st."id", st."term", ${alike('st."term"', "$1::text[]")} AS alike FROM (
       SELECT s."id", s."term" FROM unnest($1::text[]) AS w(lexeme) CROSS JOIN LATERAL (
         SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" % w.lexeme
         ORDER BY similarity(st."term", w.lexeme) DESC, st."term" LIMIT ${SPELLING_SCAN}) AS s
       UNION
       SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" IN (SELECT unnest($2::text[]))
     ) AS st`,
    [[...lexemes], [...edits]],
  );
  candidates.sort((a, b) => nearness(a.term) - nearness(b.term) || b.alike - a.alike);
  const ids = param([]);
  const probe = `SELECT t.id, c."config", c.count FROM unnest(${ids}::int[]) AS t(id) CROSS JOIN LATERAL (
      SELECT held."config", count(*)::int AS count
      FROM (SELECT p."config" FROM ${probedPassages("t.id", SPELLING_PROBE, visible, source)} LIMIT ${SPELLING_COUNT}) AS held
      GROUP BY held."config") AS c`;
  const found: Spelling[] = [];
  for (let at = 0; at < candidates.length && new Set(found.map((s) => s.term)).size < enough; at += SPELLING_BATCH) {
    const batch = candidates.slice(at, at + SPELLING_BATCH);
    params[params.length - 1] = batch.map((c) => c.id);
    const byId = new Map(batch.map((c) => [c.id, c]));
    for (const row of await read<{ id: number; config: string; count: number }>(db, probe, params)) {
      const candidate = byId.get(row.id)!;
      found.push({ term: candidate.term, config: row.config, alike: candidate.alike, count: row.count });
    }
  }
  return found;
}

/**
 * How passages the caller may see write each of `terms` (lower-cased, at most WRITTEN_PASSAGES passages read per
 * term): a stem is not a word, and one stem is several words ("differ": different, difference).
 */
export async function writtenForms(
  db: Db,
  vocabulary: Vocabulary,
  terms: readonly string[],
): Promise<Map<string, string[]>> {
  const { small } = vocabulary;
  const { params, param, visible, passages, source } = statement(vocabulary);
  const words = param([...terms]);
  const holders = small
    ? `SELECT p.* FROM (${passages}) p WHERE p."tsv" @@ q.query::tsquery LIMIT ${WRITTEN_PASSAGES}`
    : `SELECT p.* FROM ${probedPassages(`(SELECT st."id" FROM "SearchTerm" st WHERE st."term" = q.term)`, DF_EXAMINED, visible, source)}
       LIMIT ${WRITTEN_PASSAGES}`;
  const rows = await read<{ term: string; word: string }>(
    db,
    `SELECT DISTINCT q.term, lower(w) AS word
       FROM unnest(${words}::text[], ${param(terms.map((term) => lexemeQuery(term)))}::text[]) AS q(term, query)
       CROSS JOIN LATERAL (${holders}) AS p
       JOIN "Transcript" t ON t."id" = p."transcriptId"
       LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
       CROSS JOIN LATERAL generate_series(p."segFrom", p."segTo") AS i
       CROSS JOIN LATERAL regexp_split_to_table(coalesce(rev."segments", t."segments") -> i ->> 'text', '[^[:alnum:]''’]+') AS w
       WHERE q.term = ANY (tsvector_to_array(to_tsvector(p."config"::regconfig, w)))`,
    params,
  );
  const forms = new Map<string, string[]>();
  for (const row of rows) forms.set(row.term, [...(forms.get(row.term) ?? []), row.word]);
  return forms;
}

/** A LIKE pattern for the text as a prefix: its own `%`, `_` and `\` stand for themselves. */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
