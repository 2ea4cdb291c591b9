import type { Db } from "@/lib/db/client";
import { hasCjk } from "@/lib/search/cjk";
import { scopePassages } from "@/lib/search/queries";
import { SCOPE_MAX_PASSAGES } from "@/lib/search/search-plan";
import type { SearchScope } from "@/lib/search/search-statement";
import {
  visiblyHeld,
  visibleSpellings,
  visibleTermsBeginning,
  writtenForms,
  type Spelling,
  type Vocabulary,
} from "@/lib/search/visible-terms";

export { likePrefix } from "@/lib/search/visible-terms";

// Search the way people type: a word begun is read as the words of the index it begins (a prefix while typing in
// the dashboard's box), and a query that finds nothing gets the likeliest spelling of its unknown words ("did you
// mean"). Both read only the words passages the caller may see hold (visible-terms.ts): what anyone else holds
// privately never shows, not even as the absence of a suggestion.

/** At most this many words of the index stand for a word begun. */
export const PREFIX_TERMS = 16;
/** The likeliest spellings whose written forms are compared with the word typed. */
const WRITTEN_TRIES = 8;
/** Words longer than this are not edited letter by letter (their spellings come from trigrams alone). */
const EDITED_LENGTH = 24;

/** Where `scope`'s vocabulary is read: from its passages when it has at most SCOPE_MAX_PASSAGES. */
export async function vocabularyOf(db: Db, scope: SearchScope): Promise<Vocabulary> {
  return { scope, small: (await scopePassages(db, scope, SCOPE_MAX_PASSAGES + 1)) <= SCOPE_MAX_PASSAGES };
}

/**
 * The words a passage the caller may see holds that `lexeme` (a word begun, as a configuration reads it) begins,
 * shortest first. A CJK character begins the bigrams it starts: a one-character query, which has no bigram of its
 * own, finds them.
 */
export function termsStartingWith(
  db: Db,
  vocabulary: Vocabulary,
  lexeme: string,
  limit = PREFIX_TERMS,
): Promise<string[]> {
  return visibleTermsBeginning(db, vocabulary, lexeme, limit);
}

/** The last word of `q` when it is being typed: a plain word at the end (not quoted, not -excluded, not OR). */
export function wordBegun(q: string): { before: string; word: string } | null {
  if (/\s$/.test(q) || (q.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const match = /(^|\s)([\p{L}\p{N}][\p{L}\p{N}'’]*)$/u.exec(q);
  if (!match || /^or$/i.test(match[2]!)) return null;
  return { before: q.slice(0, match.index + match[1]!.length), word: match[2]! };
}

/** A plain word of a query, where it stands. */
interface QueryWord {
  at: number;
  word: string;
}

/** The plain words of `q`: not in quotes, not -excluded, not OR, no CJK (a CJK run is found inside runs already). */
export function plainWords(q: string): QueryWord[] {
  const words: QueryWord[] = [];
  let quoted = false;
  for (const match of q.matchAll(/"|(^|[\s(])(-?)([\p{L}\p{N}][\p{L}\p{N}'’]*)(?=$|[\s)"])/gu)) {
    if (match[0] === '"') {
      quoted = !quoted;
      continue;
    }
    const [, lead, minus, word] = match;
    if (quoted || minus || /^or$/i.test(word!) || hasCjk(word!)) continue;
    words.push({ at: match.index + lead!.length, word: word! });
  }
  return words;
}

const VOWELS = new Set([..."aeiouy"]);
const vowel = (c: string | undefined) => c !== undefined && VOWELS.has(c);

/**
 * How far apart two words are, as people misspell: Damerau-Levenshtein (optimal string alignment: two neighbours
 * swapped is one edit), by code points, each edit weighed by how common that slip is. A letter doubled or undoubled
 * (accomodate, neccessary) costs 0.5, two vowels swapped (recieve, wierd) 0.5, other neighbours swapped 0.8, a vowel
 * for a vowel (seperate, definately) 0.7, anything else 1; an edit of the first letter, which people seldom get
 * wrong, 0.5 more. Hand-written: the distance packages in node_modules are only other tools' dependencies, and
 * none weighs its edits.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const first = (i: number) => (i === 1 ? 0.5 : 0);
  // A letter added or left out next to the same letter: a doubling slip.
  const gap = (w: string[], i: number) => (w[i - 1] === w[i - 2] || w[i - 1] === w[i] ? 0.5 : 1);
  const d: number[][] = [[0]];
  for (let j = 1; j <= y.length; j++) d[0]![j] = d[0]![j - 1]! + gap(y, j) + first(j);
  for (let i = 1; i <= x.length; i++) {
    d[i] = [d[i - 1]![0]! + gap(x, i) + first(i)];
    for (let j = 1; j <= y.length; j++) {
      const [p, q] = [x[i - 1]!, y[j - 1]!];
      const change = p === q ? 0 : (vowel(p) && vowel(q) ? 0.7 : 1) + first(Math.min(i, j));
      let best = Math.min(
        d[i - 1]![j]! + gap(x, i) + first(i),
        d[i]![j - 1]! + gap(y, j) + first(j),
        d[i - 1]![j - 1]! + change,
      );
      if (i > 1 && j > 1 && p === y[j - 2] && x[i - 2] === q && p !== q)
        best = Math.min(best, d[i - 2]![j - 2]! + (vowel(p) && vowel(q) ? 0.5 : 0.8));
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * Every word one edit from `word`: a letter left out, two neighbours swapped, a letter changed or added (the
 * Latin alphabet and the word's own letters). Most misspellings are one edit from the word meant.
 */
export function editsOf(word: string): string[] {
  const letters = [...word];
  if (letters.length < 2 || letters.length > EDITED_LENGTH) return [];
  const alphabet = [...new Set([..."abcdefghijklmnopqrstuvwxyz", ...letters])];
  const out = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const [head, tail] = [letters.slice(0, i), letters.slice(i)];
    if (tail.length > 0) out.add([...head, ...tail.slice(1)].join(""));
    if (tail.length > 1) out.add([...head, tail[1], tail[0], ...tail.slice(2)].join(""));
    for (const c of alphabet) {
      if (tail.length > 0) out.add([...head, c, ...tail.slice(1)].join(""));
      out.add([...head, c, ...tail].join(""));
    }
  }
  out.delete(word);
  return [...out];
}

/**
 * The likeliest of `spellings` for a word typed as `typed`, `lexemes` its reading per configuration: the nearest
 * (editDistance from the word, or from its reading where the spelling's passages read it alike), then the one
 * most passages hold (the commoner word is the likelier meant), then the most alike by trigrams.
 */
export function rankSpellings(
  typed: string,
  lexemes: ReadonlyMap<string, string>,
  spellings: readonly Spelling[],
): { term: string; distance: number; count: number }[] {
  const byTerm = new Map<string, { term: string; distance: number; count: number; alike: number }>();
  for (const s of spellings) {
    const reading = lexemes.get(s.config);
    const distance = Math.min(editDistance(typed, s.term), reading ? editDistance(reading, s.term) : Infinity);
    const seen = byTerm.get(s.term);
    byTerm.set(s.term, {
      term: s.term,
      distance: Math.min(distance, seen?.distance ?? Infinity),
      count: (seen?.count ?? 0) + s.count,
      alike: Math.max(s.alike, seen?.alike ?? 0),
    });
  }
  return [...byTerm.values()].sort(
    (a, b) => a.distance - b.distance || b.count - a.count || b.alike - a.alike || (a.term < b.term ? -1 : 1),
  );
}

/**
 * The query with each of its plain words that no passage the caller may see holds replaced by the likeliest word
 * one does hold (rankSpellings), as those passages write it (the written form nearest the word typed), or null
 * when nothing is to change. Asked for when a search finds nothing.
 */
export async function didYouMean(
  db: Db,
  scope: SearchScope,
  q: string,
  configs: readonly string[],
  /** The query is being typed: its last word, begun, is not misspelt while some word the caller may see begins so. */
  typing = false,
  /** Where the words are read (tests: either way); by default as vocabularyOf(scope) says. */
  given?: Vocabulary,
): Promise<string | null> {
  const words = plainWords(q);
  if (words.length === 0) return null;
  const begun = typing && wordBegun(q) ? words.length : 0;
  // Each word as each configuration reads it, with the reading's id in the vocabulary (null: no passage holds it).
  const read = await db.$queryRaw<{ nth: number; config: string; lexeme: string; id: number | null }[]>`
    SELECT w.nth::int AS nth, c AS "config", l.lexeme, st."id"
      FROM unnest(${words.map((w) => w.word.toLowerCase())}::text[]) WITH ORDINALITY AS w(word, nth)
      CROSS JOIN unnest(${[...configs]}::text[]) AS c
      CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector(c::regconfig, w.word))) AS l(lexeme)
      LEFT JOIN "SearchTerm" st ON st."term" = l.lexeme`;
  if (read.length === 0) return null;
  const vocabulary = given ?? (await vocabularyOf(db, scope));
  const held = await visiblyHeld(
    db,
    vocabulary,
    read.flatMap((row) => (row.id === null ? [] : [{ id: row.id, config: row.config, word: row.nth }])),
  );
  let suggestion = q;
  // From the last word back, so that earlier offsets stay true.
  for (let nth = words.length; nth >= 1; nth--) {
    const word = words[nth - 1]!;
    const readings = read.filter((row) => row.nth === nth);
    // A stop word in some configuration ("in" in English) is left alone: the passages that configuration indexes
    // never hold it, and another's reading of it ("simple": in) is not a misspelling of a word they do hold.
    const stopWord = new Set(readings.map((row) => row.config)).size < configs.length;
    if (stopWord || readings.some((row) => held.has(`${row.id}:${row.config}`))) continue;
    const lexemes = [...new Set(readings.map((row) => row.lexeme))];
    const typed = word.word.toLowerCase();
    // The word as typed, not each configuration's reading of it: another language's stemmer cuts a misspelling
    // short ("marathn" → "marath") into a beginning of a word that only this language's passages hold.
    if (nth === begun && (await termsStartingWith(db, vocabulary, typed, 1)).length > 0) continue;
    const edits = [...new Set([typed, ...lexemes].flatMap(editsOf))];
    const forms = [typed, ...lexemes];
    const nearness = (term: string) => Math.min(...forms.map((form) => editDistance(form, term)));
    const ranked = rankSpellings(
      typed,
      new Map(readings.map((row) => [row.config, row.lexeme])),
      await visibleSpellings(db, vocabulary, lexemes, edits, nearness, WRITTEN_TRIES),
    );
    // The nearest written form of the likeliest spellings: one stem is several words ("differ": different,
    // difference), and two stems equally near the reading may be far apart as written (seper: separate, super).
    let best: { form: string; distance: number } | null = null;
    const written = await writtenForms(
      db,
      vocabulary,
      ranked.slice(0, WRITTEN_TRIES).map((spelling) => spelling.term),
    );
    for (const spelling of ranked.slice(0, WRITTEN_TRIES))
      for (const form of written.get(spelling.term) ?? []) {
        const distance = editDistance(typed, form);
        if (!best || distance < best.distance) best = { form, distance };
      }
    if (best && best.form !== typed)
      suggestion = suggestion.slice(0, word.at) + best.form + suggestion.slice(word.at + word.word.length);
  }
  return suggestion === q ? null : suggestion;
}
