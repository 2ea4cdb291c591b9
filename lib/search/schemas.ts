import { z } from "zod";
import { queryInt } from "@/lib/http/query";
import { HISTORY_PLATFORMS, langSchema } from "@/lib/transcripts/schemas";
import { queryProblem, SEARCH_MAX_TERMS } from "@/lib/search/query-terms";

export const SEARCH_QUERY_MAX = 500;
export const SEARCH_PAGE = 20;
export const SEARCH_MAX_PAGE = 50;
/** How deep `cursor` pages may go: relevance beyond a few hundred moments is noise. */
export const SEARCH_MAX_OFFSET = 1000;

/** `cursor` is opaque to clients: the position of the next page, base64url. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return null;
  const match = /^o:(\d{1,6})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const offset = match ? Number(match[1]) : NaN;
  return Number.isInteger(offset) && offset > 0 && offset <= SEARCH_MAX_OFFSET ? offset : null;
}

export const searchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(SEARCH_QUERY_MAX)
    .superRefine((q, ctx) => {
      const problem = queryProblem(q);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(
      `What was said: words (stemmed by the transcript's language), "quoted phrases" (in order), -excluded words, OR; at least one word to find, at most ${SEARCH_MAX_TERMS} words and phrases. Chinese, Japanese and Korean: two or more characters`,
    ),
  platform: z.enum(HISTORY_PLATFORMS).nullable().default(null),
  lang: langSchema.nullable().default(null).describe("Only transcripts in this language (e.g. en, de, zh-Hans)"),
  limit: queryInt(z.int().min(1).max(SEARCH_MAX_PAGE)).default(SEARCH_PAGE),
  prefix: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true")
    .describe(
      "true while the query is being typed: its last word, when it is a plain word, also finds the words it begins (laun → launch, launched)",
    ),
  mode: z
    .enum(["hybrid", "keyword", "meaning"])
    .default("hybrid")
    .describe(
      "hybrid: the moments that say the words and the moments that mean what the query asks, in one ranking (reciprocal rank fusion; the moments holding every word first; where none holds every word, those holding some of its rarer words); keyword: only moments that say the words; meaning: only by meaning",
    ),
  cursor: z
    .string()
    .max(100)
    .refine((cursor) => decodeCursor(cursor) !== null, "must be a next_cursor of a previous page")
    .nullable()
    .default(null)
    .describe("next_cursor of the previous page; absent for the first page"),
});

export type SearchQuery = z.output<typeof searchQuerySchema>;

/** GET /v1/public/search's query: the search's, and a followed show's page to search inside. */
export const publicSearchQuerySchema = searchQuerySchema.extend({
  show: z
    .string()
    .max(100)
    .regex(/^[a-z0-9-]+$/, "must be a show page's slug")
    .nullable()
    .default(null)
    .describe("Only the published episodes of the show whose page is /s/{show}"),
});

export type PublicSearchQuery = z.output<typeof publicSearchQuerySchema>;

export const searchMomentSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string().nullable(),
    platform: z.string(),
    video_id: z.string().nullable(),
    lang: z.string(),
    source_url: z.string().nullable().describe("The transcript's source link (null for uploads in the public search)"),
    start: z.number().describe("Start of the matching segment, in seconds"),
    end: z.number().describe("End of the matching segment, in seconds"),
    segment_index: z.int().describe("Index of the matching segment in the transcript's segments"),
    context: z
      .object({ start: z.number(), end: z.number(), text: z.string() })
      .describe(
        "The matching segment with its neighbours: the passage it was found in (at most about 1,000 characters of it, around the match; … where cut)",
      ),
    snippet: z.string().describe("Words around the match (at most about 300 characters; … where cut)"),
    highlights: z
      .array(z.tuple([z.int(), z.int()]))
      .describe(
        "The matched words in `snippet`: [start, end) offsets in UTF-16 code units, as JavaScript strings count",
      ),
    links: z.object({
      source: z
        .string()
        .nullable()
        .describe("The moment on the platform (YouTube &t=, Vimeo #t=), where it has such links"),
      viewer: z.string().nullable().describe("The dashboard's viewer at the moment (the caller's library only)"),
      page: z
        .string()
        .nullable()
        .describe("The public page /t/{slug} at the moment's line, when the transcript is published"),
    }),
    slug: z.string().nullable().describe("The public page's slug, when published"),
    rank: z.number().describe("Relevance (higher is better); comparable within one answer only"),
    matched: z
      .enum(["words", "some_words", "meaning", "both"])
      .describe(
        "How the moment was found: by the query's words (every one); by some of its rarer words (`mode` hybrid, when no moment holds every word: `highlights` mark those said; `closeness` set when its meaning is near too); by its meaning (the words need not be said; `highlights` then mark the line that answers); or by both its words and its meaning",
      ),
    closeness: z
      .enum(["close", "related", "loose"])
      .nullable()
      .describe(
        "How close the moment's meaning is to the query's, in words: close, related or loose (null when found by its words alone)",
      ),
  })
  .meta({ id: "SearchMoment" });

export type SearchMoment = z.infer<typeof searchMomentSchema>;

export const searchResponseSchema = z
  .object({
    results: z.array(searchMomentSchema).describe("Moments, most relevant first; at most 3 per transcript"),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
    did_you_mean: z
      .string()
      .nullable()
      .describe(
        "When no moment on the first page holds every word (it is empty, or each moment is `some_words`): the query with each word no transcript in reach holds replaced by the likeliest one that is held (a misspelling's word); null otherwise",
      ),
    nothing_close: z
      .boolean()
      .describe(
        "True when the query was searched by meaning and is about nothing in reach (most of its words are said in no transcript it may search): no moment was found by meaning, and any in `results` matched its words or some of them (`matched`)",
      ),
    partial: z
      .boolean()
      .describe(
        "True when the search ran out of its deadline before it finished a part of its work (the moments found by meaning, a deeper page's further candidates, a spelling): `results` are those found in time, best first; asking again may find more",
      ),
  })
  .meta({ id: "SearchResponse" });

export type SearchResponse = z.infer<typeof searchResponseSchema>;
