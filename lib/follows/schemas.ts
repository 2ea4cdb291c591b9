import { z } from "zod";
import { MAX_SOURCE_URL_LENGTH } from "@/lib/sources";
import { formatSchema, requestLangSchema } from "@/lib/transcripts/schemas";
import { FORMATS } from "@/lib/formats/types";

const webhookUrl = z
  .string()
  .max(2048)
  .describe(
    "Optional. This https URL is sent transcript.completed / transcript.failed (with `follow_id`) for each item this follow transcribes, signed per Standard Webhooks with the account's request signing secret (POST /v1/me/webhooks/request-secret), as a request's own `webhook_url`.",
  );

export const createFollowSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(MAX_SOURCE_URL_LENGTH)
      .describe("A podcast feed (RSS or Atom), an Apple Podcasts show link, or a YouTube channel or playlist URL"),
    lang: requestLangSchema.default("en").describe("The language new items are transcribed in"),
    format: formatSchema.default("json").describe("The format the follow's transcripts are read in"),
    publish: z.boolean().optional().describe("Publish each new item's transcript on a public page (default false)"),
    backfill: z
      .number()
      .int()
      .min(0)
      .max(500)
      .optional()
      .describe(
        "Also transcribe the latest N items already there (at most FOLLOW_MAX_BACKFILL); 0, the default, starts from now",
      ),
    webhook_url: webhookUrl.optional(),
  })
  .meta({ id: "FollowRequest" });

export type CreateFollowRequest = z.output<typeof createFollowSchema>;

export const updateFollowSchema = z
  .object({
    state: z.enum(["active", "paused"]).optional().describe("`paused` stops checking; `active` resumes"),
    lang: requestLangSchema.optional(),
    format: formatSchema.optional(),
    publish: z.boolean().optional(),
    webhook_url: webhookUrl.nullable().optional().describe("null removes it"),
  })
  .meta({ id: "FollowUpdate" });

export type UpdateFollowRequest = z.output<typeof updateFollowSchema>;

export const FOLLOW_STATES = ["active", "paused", "allowance", "failing"] as const;
export type FollowState = (typeof FOLLOW_STATES)[number];
export const FOLLOW_KINDS = ["podcast", "youtube"] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

export const FOLLOW_PUSH_STATES = ["off", "pending", "active", "failed"] as const;

export const followPushSchema = z
  .object({
    hub: z.string().describe("The WebSub hub the source names (a YouTube channel's: FOLLOW_PUSH_YOUTUBE_HUB)"),
    state: z
      .enum(FOLLOW_PUSH_STATES)
      .describe(
        "off (not subscribed: paused, or not yet asked); pending (asked, the hub has not verified); active (new items are pushed; the follow is still polled every FOLLOW_PUSH_POLL_HOURS); failed (`note` says why: polled as usual)",
      ),
    lease_ends_at: z
      .string()
      .nullable()
      .describe("When the hub's subscription lapses unless renewed (it is renewed before)"),
    note: z.string().nullable().describe("Why push is not live, when it is not"),
  })
  .meta({ id: "FollowPush" });

export const followSchema = z
  .object({
    id: z.string(),
    url: z.string().describe("The feed's or channel's URL (a feed that moved permanently has its new one)"),
    kind: z.enum(FOLLOW_KINDS),
    title: z.string().nullable(),
    state: z
      .enum(FOLLOW_STATES)
      .describe(
        "active; paused (by you); allowance (the allowance ran out: resumes with the next period); failing (the last checks failed: `note` says why, checks back off)",
      ),
    note: z.string().nullable().describe("Why the follow is paused for the allowance or failing"),
    lang: z.string(),
    format: z.enum(FORMATS),
    publish: z.boolean(),
    webhook_url: z.string().nullable(),
    last_checked_at: z.string().nullable(),
    next_check_at: z.string().nullable(),
    items_seen: z.number().int().describe("Items the follow has listed, transcribed or not"),
    push: followPushSchema
      .nullable()
      .describe(
        "WebSub: where the source names a hub (YouTube channels do; many feeds too), new items are pushed rather than waited for; null: polled only",
      ),
    show_url: z
      .string()
      .nullable()
      .describe(
        "The show's public page (its feed of transcribed episodes: this URL and /feed.xml); it answers once an episode of the follow is published",
      ),
    created_at: z.string(),
  })
  .meta({ id: "Follow" });

export type FollowOut = z.infer<typeof followSchema>;

export const FOLLOW_ITEM_STATUSES = ["seen", "queued", "running", "done", "failed"] as const;
export type FollowItemStatus = (typeof FOLLOW_ITEM_STATUSES)[number];

export const followItemSchema = z
  .object({
    guid: z.string(),
    title: z.string(),
    url: z.string().describe("The episode's audio URL, or the video's page"),
    status: z
      .enum(FOLLOW_ITEM_STATUSES)
      .describe(
        "seen (already there when the follow began: not transcribed); queued → running → done | failed (with `note`)",
      ),
    note: z.string().nullable(),
    job_id: z.string().nullable().describe("The speech-recognition job (GET /v1/jobs/{job_id}), when one was needed"),
    transcript_id: z.string().nullable().describe("Once done: the transcript (GET /v1/transcripts/{id})"),
    found_at: z.string(),
  })
  .meta({ id: "FollowItem" });

export type FollowItemOut = z.infer<typeof followItemSchema>;

export const followDetailSchema = followSchema
  .extend({ items: z.array(followItemSchema).describe("The 50 items found last, newest first") })
  .meta({ id: "FollowDetail" });

export type FollowDetailOut = z.infer<typeof followDetailSchema>;

export const followParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const pushCallbackParamsSchema = z.object({
  token: z.string().min(1).max(128).describe("The subscription's callback token, as the hub was given it"),
});
