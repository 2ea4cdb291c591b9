// Whether a question is about anything in reach at all, from its words: averaged word vectors find every question
// somewhat like some passage (an off-topic question's best passage is as alike as a paraphrase's answer), but a
// question about nothing here mostly uses words no passage in reach says ("how do I descale a kettle"), while a
// question in other words than its moment still shares some of them. Read only from the words passages the caller
// may see hold (visible-terms.ts), so nothing anyone else holds privately changes an answer.
import type { Db } from "@/lib/db/client";
import type { Vocabulary } from "@/lib/search/visible-terms";
import { saidTogether, visiblyHeld } from "@/lib/search/visible-terms";

/**
 * Fewer words of a topic than this say too little to judge by: a lone word no passage says is a synonym's as often
 * as another subject's ("cat" in a library that says "kitten").
 */
export const OFF_TOPIC_MIN_WORDS = 2;

/**
 * A question of at most this many words of a topic, no two of which are said together (within a few minutes of one
 * transcript, visible-terms.ts saidTogether) anywhere in reach, is about nothing here however many of them are said
 * apart: "what temperature to roast a turkey" in a library that says "temperature" of laptops and "Turkey" of an
 * empire. A longer question in other words than its moment often says its words apart: judged by their share alone.
 */
export const OFF_TOPIC_APART_MAX_WORDS = 3;

/**
 * Whether `q` is about nothing in reach: it says at least OFF_TOPIC_MIN_WORDS words of a topic and at most `share`
 * of them are said in a passage the caller may see, or it says at most OFF_TOPIC_APART_MAX_WORDS and no two of them
 * are said together.
 */
export async function aboutNothingHere(
  db: Db,
  vocabulary: Vocabulary,
  q: string,
  configs: readonly string[],
  share: number,
): Promise<boolean> {
  const { words, held, readings } = await heldWords(db, vocabulary, q, configs);
  if (words < OFF_TOPIC_MIN_WORDS) return false;
  if (held <= share * words) return true;
  return words <= OFF_TOPIC_APART_MAX_WORDS && !(await saidTogether(db, vocabulary, readings));
}

/**
 * How many of `q`'s words (a stop word of any of `configs` aside: it says nothing of a topic) that a passage the
 * caller may see holds, as one of `configs` reads it in passages of that configuration, of how many; and each held
 * word's readings so held.
 */
export async function heldWords(
  db: Db,
  vocabulary: Vocabulary,
  q: string,
  configs: readonly string[],
): Promise<{ words: number; held: number; readings: { id: number; config: string; term: string }[][] }> {
  const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [])];
  if (words.length === 0) return { words: 0, held: 0, readings: [] };
  // `simple` reads every word as itself, stop words too: a word is a topic's when every other configuration keeps it.
  const topical = configs.some((c) => c !== "simple") ? configs.filter((c) => c !== "simple") : configs;
  const readings = await db.$queryRaw<{ nth: number; config: string; lexeme: string | null; id: number | null }[]>`
    SELECT w.nth::int AS nth, c AS "config", l.lexeme, st."id"
      FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, nth)
      CROSS JOIN unnest(${[...configs]}::text[]) AS c
      LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector(c::regconfig, w.word))) AS l(lexeme) ON true
      LEFT JOIN "SearchTerm" st ON st."term" = l.lexeme`;
  const content = words
    .map((_, i) => readings.filter((row) => row.nth === i + 1))
    .filter((rows) => topical.every((config) => rows.some((row) => row.config === config && row.lexeme !== null)));
  if (content.length === 0) return { words: 0, held: 0, readings: [] };
  const held = await visiblyHeld(
    db,
    vocabulary,
    content.flat().flatMap((row) => (row.id === null ? [] : [{ id: row.id, config: row.config, word: row.nth }])),
  );
  // Each held word's readings that a visible passage holds.
  const readingsHeld = content
    .map((rows) =>
      rows.flatMap((row) =>
        row.id !== null && row.lexeme !== null && held.has(`${row.id}:${row.config}`)
          ? [{ id: row.id, config: row.config, term: row.lexeme }]
          : [],
      ),
    )
    .filter((rows) => rows.length > 0);
  return { words: content.length, held: readingsHeld.length, readings: readingsHeld };
}
