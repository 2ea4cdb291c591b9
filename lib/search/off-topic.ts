// Whether a question is about anything in reach at all, from its words: averaged word vectors find every question
// somewhat like some passage (an off-topic question's best passage is as alike as a paraphrase's answer), but a
// question about nothing here mostly uses words no passage in reach says ("how do I descale a kettle"), while a
// question in other words than its moment still shares some of them. Read only from the words passages the caller
// may see hold (visible-terms.ts), so nothing anyone else holds privately changes an answer.
import type { Db } from "@/lib/db/client";
import type { Vocabulary } from "@/lib/search/visible-terms";
import { visiblyHeld } from "@/lib/search/visible-terms";

/**
 * Fewer words of a topic than this say too little to judge by: a lone word no passage says is a synonym's as often
 * as another subject's ("cat" in a library that says "kitten").
 */
export const OFF_TOPIC_MIN_WORDS = 2;

/**
 * Whether `q` is about nothing in reach: it says at least OFF_TOPIC_MIN_WORDS words of a topic and at most `share`
 * of them are said in a passage the caller may see.
 */
export async function aboutNothingHere(
  db: Db,
  vocabulary: Vocabulary,
  q: string,
  configs: readonly string[],
  share: number,
): Promise<boolean> {
  const { words, held } = await heldWords(db, vocabulary, q, configs);
  return words >= OFF_TOPIC_MIN_WORDS && held <= share * words;
}

/**
 * How many of `q`'s words (a stop word of any of `configs` aside: it says nothing of a topic) that a passage the
 * caller may see holds, as one of `configs` reads it in passages of that configuration, of how many.
 */
export async function heldWords(
  db: Db,
  vocabulary: Vocabulary,
  q: string,
  configs: readonly string[],
): Promise<{ words: number; held: number }> {
  const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [])];
  if (words.length === 0) return { words: 0, held: 0 };
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
  if (content.length === 0) return { words: 0, held: 0 };
  const held = await visiblyHeld(
    db,
    vocabulary,
    content.flat().flatMap((row) => (row.id === null ? [] : [{ id: row.id, config: row.config }])),
  );
  return {
    words: content.length,
    held: content.filter((rows) => rows.some((row) => held.has(`${row.id}:${row.config}`))).length,
  };
}
