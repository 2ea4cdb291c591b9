import { dbKind, type Db } from "@/lib/db/client";
import { statementTimeoutMs } from "@/lib/search/deadline";
import { Prisma } from "@/lib/generated/prisma/client";
import { searchPlannerSettings } from "@/lib/search/planner-settings";
import { runSearchStatement, runStatement } from "@/lib/search/queries";
import {
  passageVisibility,
  scopePassagesSql,
  TRANSCRIPT_PASSAGES,
  type SearchScope,
  type SqlStatement,
} from "@/lib/search/search-statement";

const { sql, raw } = Prisma;

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

/** The scope's pieces of a statement: who may see a passage, the scope's passages, where passages are read. */
function statement({ scope, corrects = true }: Vocabulary) {
  const user = scope.kind === "library" ? sql`${scope.userId}` : null;
  const show = scope.kind === "public" && scope.show ? sql`${scope.show}` : null;
  const alone = user !== null && !corrects;
  const { visible } = passageVisibility({ user, show, corrects: !alone });
  return {
    visible,
    passages: scopePassagesSql({ user, show }),
    source: alone ? TRANSCRIPT_PASSAGES : sql`"SearchPassage"`,
  };
}

/** A constant of this module written into a statement (an integer bound). */
const bound = (n: number) => raw(String(Math.trunc(n)));

/**
 * Runs one of these statements under the search statement's settings (planner-settings.ts): their estimates, a
 * probe per posting, pass jit_above_cost while they stop at a bound (compiling cost 74 ms of a 126 ms statement).
 */
async function read<Row>(db: Db, statement: SqlStatement): Promise<Row[]> {
  // PGlite has no JIT, and a transaction of its own would cost each statement a turn of the embedded database.
  if ((await dbKind()) === "pglite") return runStatement<Row>(db, statement);
  return runSearchStatement<Row>(db, statement, searchPlannerSettings({ timeoutMs: statementTimeoutMs() }));
}

/** A word of the index as a tsquery that matches it alone (a lexeme, quoted as tsquery's input reads it). */
export function lexemeQuery(term: string, prefix = false): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${prefix ? ":*" : ""}`;
}

/**
 * The visible passages of the term `termId` (an SQL expression) as "p", its postings best first, at most
 * `examined` of them probed (OFFSET 0: a lookup per posting).
 */
function probedPassages(
  termId: Prisma.Sql,
  examined: number,
  visible: Prisma.Sql,
  source: Prisma.Sql = sql`"SearchPassage"`,
): Prisma.Sql {
  return sql`(SELECT sp."pid" FROM "SearchPosting" sp WHERE sp."termId" = ${termId}
            ORDER BY sp."impact" DESC, sp."pid" DESC LIMIT ${bound(examined)}) c
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
  upTo: number,
  examined = DF_EXAMINED,
): Promise<Map<number, number>> {
  if (termIds.length === 0) return new Map();
  const { small } = vocabulary;
  const { visible, passages, source } = statement(vocabulary);
  const ids = [...termIds];
  const text = small
    ? sql`SELECT sp."termId" AS id, least(count(*), ${upTo}::int)::int AS n
         FROM (${passages}) p JOIN "SearchPosting" sp ON sp."pid" = p."pid" AND sp."termId" = ANY (${ids}::int[])
         GROUP BY sp."termId"`
    : sql`SELECT t.id, (SELECT count(*)::int FROM (SELECT 1 FROM ${probedPassages(sql`t.id`, examined, visible, source)}
                                                LIMIT ${upTo}::int) AS x) AS n
         FROM unnest(${ids}::int[]) AS t(id)`;
  const rows = await read<{ id: number; n: number }>(db, text);
  return new Map(rows.filter((row) => row.n > 0).map((row) => [row.id, row.n]));
}

/** Postings of a word first probed for the configurations of the visible passages that hold it. */
export const HELD_FIRST_PROBED = 256;

/**
 * Which of `pairs` (a term's id, a configuration) a passage the caller may see, of that configuration, holds: a
 * word is known as a configuration reads it in passages of that configuration, the only ones its reading matches.
 * Answers the pairs held, as `id:config`. A larger scope reads each term's postings once for all its configurations
 * (a question's word is read by each of some 30 configurations, mostly as the same term, and a configuration whose
 * passages do not hold it read every posting of it, up to DF_EXAMINED, once per configuration): first its best
 * HELD_FIRST_PROBED, then, for the terms of a `word` none of whose readings is held yet, up to DF_EXAMINED.
 */
export async function visiblyHeld(
  db: Db,
  vocabulary: Vocabulary,
  pairs: readonly { id: number; config: string; word?: number }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const { small } = vocabulary;
  const { visible, passages, source } = statement(vocabulary);
  const held = (asked: readonly { id: number; config: string }[], examined: number) => {
    const ids = asked.map((pair) => pair.id);
    const configs = asked.map((pair) => pair.config);
    return read<{ id: number; config: string }>(
      db,
      small
        ? sql`SELECT DISTINCT t.id, t."config" FROM (${passages}) p
         JOIN "SearchPosting" sp ON sp."pid" = p."pid"
         JOIN unnest(${ids}::int[], ${configs}::text[]) AS t(id, "config") ON t.id = sp."termId" AND t."config" = p."config"`
        : sql`WITH asked AS (SELECT * FROM unnest(${ids}::int[], ${configs}::text[]) AS t(id, "config"))
       SELECT DISTINCT t.id, p."config" FROM (SELECT DISTINCT id FROM asked) AS t
       CROSS JOIN LATERAL (SELECT p."config" FROM ${probedPassages(sql`t.id`, examined, visible, source)}) AS p
       WHERE (t.id, p."config") IN (SELECT id, "config" FROM asked)`,
    );
  };
  const found = new Set(
    (await held(pairs, small ? DF_EXAMINED : HELD_FIRST_PROBED)).map((row) => `${row.id}:${row.config}`),
  );
  if (small) return found;
  const heldWords = new Set(
    pairs.flatMap((p) => (p.word !== undefined && found.has(`${p.id}:${p.config}`) ? [p.word] : [])),
  );
  const rest = pairs.filter(
    (p) => !found.has(`${p.id}:${p.config}`) && (p.word === undefined || !heldWords.has(p.word)),
  );
  if (rest.length > 0) for (const row of await held(rest, DF_EXAMINED)) found.add(`${row.id}:${row.config}`);
  return found;
}

/** Passages of one word read at most when looking for another word of a question said near it. */
export const TOGETHER_EXAMINED = 2_000;
/** Passages either side of one that are near it: a few minutes of speech. */
export const TOGETHER_SPAN = 5;

/**
 * Whether two of a question's words are said together: in one passage the caller may see, or one in it and the other
 * at most TOGETHER_SPAN passages before or after it (the same transcript, as the same version reads it: a passage
 * near a visible one is visible). `words`: each word's readings, a term's id and a configuration, in passages of that
 * configuration. A small scope's passages are read whole; a larger one's, each word's postings best first, at most
 * TOGETHER_EXAMINED of them, and a word with that many postings counts as said near every other (too widely said to
 * tell, as a bound of visiblyHeld's kind).
 */
export async function saidTogether(
  db: Db,
  vocabulary: Vocabulary,
  words: readonly (readonly { id: number; config: string; term: string }[])[],
): Promise<boolean> {
  const anchors = words.flatMap((readings, nth) =>
    readings.flatMap(({ id, config }) => {
      const others = words.flatMap((other, at) =>
        at === nth ? [] : other.filter((r) => r.config === config).map((r) => lexemeQuery(r.term)),
      );
      return others.length === 0 ? [] : [{ id, config, nth, others: [...new Set(others)].join(" | ") }];
    }),
  );
  if (anchors.length === 0) return false;
  const { small } = vocabulary;
  const { visible, passages, source } = statement(vocabulary);
  const span = bound(TOGETHER_SPAN);
  const near = (table: Prisma.Sql, key: Prisma.Sql) =>
    sql`EXISTS (SELECT 1 FROM ${table} q WHERE q.${key} = p.${key} AND q."seq" BETWEEN p."seq" - ${span} AND p."seq" + ${span}
          AND q."tsv" @@ a.others::tsquery)`;
  const holders = small
    ? sql`SELECT p.* FROM (${passages}) p JOIN "SearchPosting" sp ON sp."pid" = p."pid" AND sp."termId" = a.id
         WHERE p."config" = a."config"`
    : sql`SELECT p.* FROM ${probedPassages(sql`a.id`, TOGETHER_EXAMINED, sql`p."config" = a."config" AND ${visible}`, source)}`;
  const rows = await read<{ postings: number; together: boolean | null }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM (SELECT 1 FROM "SearchPosting" sp WHERE sp."termId" = a.id
                 LIMIT ${bound(TOGETHER_EXAMINED)}) AS x) AS postings,
              bool_or(CASE WHEN p."revisionId" IS NULL THEN ${near(sql`"TranscriptPassage"`, sql`"transcriptId"`)}
                ELSE ${near(sql`"RevisionPassage"`, sql`"revisionId"`)} END) AS together
       FROM unnest(${anchors.map((a) => a.id)}::int[], ${anchors.map((a) => a.config)}::text[],
                   ${anchors.map((a) => a.nth)}::int[], ${anchors.map((a) => a.others)}::text[]) AS a(id, "config", nth, others)
       LEFT JOIN LATERAL (${holders}) AS p ON true
       GROUP BY a.nth, a.id, a."config", a.others`,
  );
  return rows.some((row) => row.together === true || (!small && row.postings >= TOGETHER_EXAMINED));
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
  const { visible, passages, source } = statement(vocabulary);
  const like = sql`${likePrefix(lexeme)}::text`;
  const text = small
    ? sql`SELECT term FROM (
         SELECT DISTINCT l AS term FROM (${passages}) p CROSS JOIN LATERAL unnest(tsvector_to_array(p."tsv")) AS l
         WHERE p."tsv" @@ ${lexemeQuery(lexeme, true)}::tsquery AND l LIKE ${like}) AS begun
       ORDER BY char_length(term), term LIMIT ${limit}`
    : sql`SELECT term FROM (SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" LIKE ${like} LIMIT ${bound(PREFIX_SCAN)}) AS st
       WHERE EXISTS (SELECT 1 FROM ${probedPassages(sql`st."id"`, PREFIX_PROBE, visible, source)})
       ORDER BY char_length(term), term LIMIT ${limit}`;
  const rows = await read<{ term: string }>(db, text);
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
  const { visible, passages, source } = statement(vocabulary);
  const alike = (term: Prisma.Sql, words: Prisma.Sql) =>
    sql`(SELECT max(similarity(${term}, x)) FROM unnest(${words}) AS x)::float8`;
  if (small) {
    const words = sql`${[...lexemes]}::text[]`;
    return read<Spelling>(
      db,
      sql`WITH held AS (
         SELECT l AS term, p."config", count(*)::int AS count
         FROM (${passages}) p CROSS JOIN LATERAL unnest(tsvector_to_array(p."tsv")) AS l
         GROUP BY l, p."config")
       SELECT term, "config", ${alike(sql`term`, words)} AS alike, least(count, ${bound(SPELLING_COUNT)})::int AS count FROM held
       WHERE term % ANY (${words}) OR term IN (SELECT unnest(${[...edits]}::text[]))`,
    );
  }
  // The candidates, whoever holds them (the vocabulary's own indexes), then only the visible ones kept.
  const words = sql`${[...lexemes]}::text[]`;
  const candidates = await read<{ id: number; term: string; alike: number }>(
    db,
    sql`SELECT st."id", st."term", ${alike(sql`st."term"`, words)} AS alike FROM (
       SELECT s."id", s."term" FROM unnest(${words}) AS w(lexeme) CROSS JOIN LATERAL (
         SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" % w.lexeme
         ORDER BY similarity(st."term", w.lexeme) DESC, st."term" LIMIT ${bound(SPELLING_SCAN)}) AS s
       UNION
       SELECT st."id", st."term" FROM "SearchTerm" st WHERE st."term" IN (SELECT unnest(${[...edits]}::text[]))
     ) AS st`,
  );
  candidates.sort((a, b) => nearness(a.term) - nearness(b.term) || b.alike - a.alike);
  const probe = (
    ids: number[],
  ) => sql`SELECT t.id, c."config", c.count FROM unnest(${ids}::int[]) AS t(id) CROSS JOIN LATERAL (
      SELECT held."config", count(*)::int AS count
      FROM (SELECT p."config" FROM ${probedPassages(sql`t.id`, SPELLING_PROBE, visible, source)} LIMIT ${bound(SPELLING_COUNT)}) AS held
      GROUP BY held."config") AS c`;
  const found: Spelling[] = [];
  for (let at = 0; at < candidates.length && new Set(found.map((s) => s.term)).size < enough; at += SPELLING_BATCH) {
    const batch = candidates.slice(at, at + SPELLING_BATCH);
    const byId = new Map(batch.map((c) => [c.id, c]));
    for (const row of await read<{ id: number; config: string; count: number }>(db, probe(batch.map((c) => c.id)))) {
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
  const { visible, passages, source } = statement(vocabulary);
  const holders = small
    ? sql`SELECT p.* FROM (${passages}) p WHERE p."tsv" @@ q.query::tsquery LIMIT ${bound(WRITTEN_PASSAGES)}`
    : sql`SELECT p.* FROM ${probedPassages(sql`(SELECT st."id" FROM "SearchTerm" st WHERE st."term" = q.term)`, DF_EXAMINED, visible, source)}
       LIMIT ${bound(WRITTEN_PASSAGES)}`;
  const rows = await read<{ term: string; word: string }>(
    db,
    sql`SELECT DISTINCT q.term, lower(w) AS word
       FROM unnest(${[...terms]}::text[], ${terms.map((term) => lexemeQuery(term))}::text[]) AS q(term, query)
       CROSS JOIN LATERAL (${holders}) AS p
       JOIN "Transcript" t ON t."id" = p."transcriptId"
       LEFT JOIN "TranscriptRevision" rev ON rev."id" = p."revisionId"
       CROSS JOIN LATERAL generate_series(p."segFrom", p."segTo") AS i
       CROSS JOIN LATERAL regexp_split_to_table(coalesce(rev."segments", t."segments") -> i ->> 'text', '[^[:alnum:]''’]+') AS w
       WHERE q.term = ANY (tsvector_to_array(to_tsvector(p."config"::regconfig, w)))`,
  );
  const forms = new Map<string, string[]>();
  for (const row of rows) forms.set(row.term, [...(forms.get(row.term) ?? []), row.word]);
  return forms;
}

/** A LIKE pattern for the text as a prefix: its own `%`, `_` and `\` stand for themselves. */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
