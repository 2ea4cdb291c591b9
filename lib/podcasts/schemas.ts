import { z } from "zod";
import { MAX_SOURCE_URL_LENGTH } from "@/lib/sources";

/**
 * Episodes a resolve answers at once: by default every episode of any real feed (the longest-running shows
 * have a few thousand; a client that follows the contract, which has no paging, must get them all), paged
 * past that. An episode out is a few hundred bytes and a feed is at most PODCAST_FEED_MAX_BYTES, so a page
 * stays bounded by the feed's own size; hostile feeds are bounded by the parser (parse-off-thread.ts).
 */
export const DEFAULT_EPISODES_PAGE = 5_000;
export const MAX_EPISODES_PAGE = 5_000;

export const resolveRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(MAX_SOURCE_URL_LENGTH)
      .describe(
        "An RSS or Atom feed URL, an Apple Podcasts show or episode link, or a direct link to an episode's audio file",
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_EPISODES_PAGE)
      .optional()
      .describe(`Episodes to answer for a feed, at most ${MAX_EPISODES_PAGE}; default ${DEFAULT_EPISODES_PAGE}`),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Episodes to skip (newest first): the previous answer's `next_offset`; default 0"),
  })
  .meta({ id: "ResolveRequest" });

export type ResolveRequest = z.output<typeof resolveRequestSchema>;

export const showInfoSchema = z.object({ title: z.string() }).meta({ id: "ShowInfo" });

export const episodeOutSchema = z
  .object({
    guid: z.string().describe("The feed's guid for the episode (Atom: its id); the audio URL when the feed gives none"),
    title: z.string(),
    audio_url: z
      .string()
      .describe("The episode's audio file (the enclosure); pass it as `audio` to POST /v1/transcript"),
    published: z.string().nullable().describe("ISO 8601"),
    duration: z
      .string()
      .nullable()
      .describe("HH:MM:SS, normalized from the feed's seconds, MM:SS or HH:MM:SS; hours may exceed 24"),
    has_transcript: z
      .boolean()
      .describe(
        "The feed links a timed transcript of it (Podcasting 2.0 `podcast:transcript`: WebVTT, SRT, JSON or HTML): POST /v1/transcript takes that, at once and free, with no speech recognition",
      ),
  })
  .meta({ id: "EpisodeOut" });

export type EpisodeOut = z.infer<typeof episodeOutSchema>;

export const resolveResponseSchema = z
  .object({
    kind: z
      .enum(["feed", "episode", "audio"])
      .describe("feed: a whole show; episode: one episode of a show (Apple episode link); audio: a direct audio file"),
    show: showInfoSchema.nullable(),
    episodes: z
      .array(episodeOutSchema)
      .nullable()
      .describe(
        "Newest first as the feed lists them; only items with an audio enclosure. For `feed`, one page: `limit` from `offset`",
      ),
    audio_url: z.string().nullable().describe("For `episode` and `audio`: the audio to transcribe"),
    total_episodes: z
      .number()
      .int()
      .optional()
      .describe("For `feed`: the episodes with audio the feed lists (of which the first 10,000 can be paged through)"),
    next_offset: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("For `feed`: the `offset` of the next page, or null on the last one"),
  })
  .meta({ id: "ResolveResponse" });

export type ResolveResponse = z.infer<typeof resolveResponseSchema>;
