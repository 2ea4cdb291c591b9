import { z } from "zod";
import { SEARCH_QUERY_MAX } from "@/lib/search/schemas";
import { queryProblem, SEARCH_MAX_TERMS } from "@/lib/search/query-terms";
import { alertMatchedSchema } from "@/lib/webhooks/schemas";
import { ALERT_CLOSENESS_WORDS } from "@/lib/alerts/closeness";
import { createFollowSchema } from "@/lib/follows/schemas";

export const ALERT_SCOPES = ["library", "team", "follows", "public"] as const;
export type AlertScopeKind = (typeof ALERT_SCOPES)[number];
export const ALERT_MODES = ["words", "meaning"] as const;
export type AlertMode = (typeof ALERT_MODES)[number];

/** Most follows one alert may watch. */
export const ALERT_MAX_FOLLOWS = 50;

const scopeSchema = z
  .object({
    kind: z
      .enum(ALERT_SCOPES)
      .describe(
        "library: the account's own library (a team's when created in a team); team: the library of a team you are a member of (`team_id`); follows: the episodes of the account's follows in `follow_ids`; public: every published transcript",
      ),
    team_id: z.string().min(1).max(64).nullable().default(null).describe("The team (kind `team`)"),
    follow_ids: z
      .array(z.string().min(1).max(64))
      .max(ALERT_MAX_FOLLOWS)
      .default([])
      .describe("The follows whose episodes it watches (kind `follows`)"),
  })
  .superRefine((scope, ctx) => {
    if (scope.kind === "team" && !scope.team_id)
      ctx.addIssue({ code: "custom", path: ["team_id"], message: "a team's scope needs team_id" });
    if (scope.kind === "follows" && scope.follow_ids.length === 0)
      ctx.addIssue({ code: "custom", path: ["follow_ids"], message: "a follows scope needs at least one follow id" });
  });

const querySchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(SEARCH_QUERY_MAX)
  .describe(
    `What to watch for. mode words: the search's syntax (words, "quoted phrases", -excluded words, OR; at least one word to find, at most ${SEARCH_MAX_TERMS} terms); mode meaning: a question or sentence`,
  );

const wordsProblem = (value: { query?: string; mode?: AlertMode }, ctx: z.RefinementCtx) => {
  if (value.query === undefined || value.mode === "meaning") return;
  const problem = queryProblem(value.query);
  if (problem) ctx.addIssue({ code: "custom", path: ["query"], message: problem });
};

const closenessSchema = z
  .union([z.number().min(0.3).max(1), z.enum(ALERT_CLOSENESS_WORDS)])
  .describe(
    "mode meaning: how alike a passage must be to the query, in words (related, close, very_close: on the server's embedder's own scale, as search's `closeness` says them, very_close above close; default very_close) or as the cosine itself (0.3–1)",
  );

export const createAlertSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional().describe("Default: the query"),
    query: querySchema,
    mode: z.enum(ALERT_MODES).default("words"),
    closeness: closenessSchema.optional(),
    scope: scopeSchema,
    email: z.boolean().default(false).describe("Also mail each match to the person who created the alert"),
  })
  .superRefine(wordsProblem)
  .meta({ id: "AlertCreate" });

export type CreateAlertRequest = z.output<typeof createAlertSchema>;

export const updateAlertSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    query: querySchema.optional(),
    closeness: closenessSchema.optional(),
    paused: z
      .boolean()
      .optional()
      .describe("true stops it at once; false resumes it (matching transcripts from now on)"),
    email: z.boolean().optional(),
  })
  .meta({ id: "AlertUpdate" });

export type UpdateAlertRequest = z.output<typeof updateAlertSchema>;

export const addShowSchema = createFollowSchema
  .pick({ url: true, lang: true })
  .extend({
    lang: createFollowSchema.shape.lang.describe(
      "The language the show's new items are transcribed in, when the account does not follow it yet",
    ),
  })
  .meta({ id: "AlertShowAdd" });

export type AddShowRequest = z.output<typeof addShowSchema>;

export const alertParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const alertFeedParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

export const alertSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    query: z.string(),
    mode: z.enum(ALERT_MODES),
    closeness: z
      .number()
      .nullable()
      .describe("mode meaning: the least cosine a passage must reach on the embedder's scale (null: mode words)"),
    scope: z.object({
      kind: z.enum(ALERT_SCOPES),
      team_id: z.string().nullable(),
      follow_ids: z.array(z.string()),
    }),
    email: z.boolean(),
    paused: z.boolean(),
    feed_url: z.string().describe("The alert's Atom feed: a secret URL (anyone holding it reads the matches)"),
    unread: z.int().describe("Matches not yet read in the inbox"),
    created_at: z.string(),
  })
  .meta({ id: "Alert" });

export type AlertOut = z.infer<typeof alertSchema>;

export const alertListSchema = z
  .object({ alerts: z.array(alertSchema), unread: z.int().describe("Unread matches of all the account's alerts") })
  .meta({ id: "AlertList" });

export const alertMatchSchema = alertMatchedSchema
  .extend({
    id: z.string(),
    alert_id: z.string(),
    digest: z.boolean().describe("Held past the day's cap and sent in the day's digest"),
    delivery: z.object({
      webhooks: z.int().describe("Webhook messages queued"),
      email: z.enum(["sent", "logged", "failed", "off", "digest"]).describe("What became of its e-mail"),
    }),
    read: z.boolean(),
  })
  .meta({ id: "AlertMatch" });

export type AlertMatchOut = z.infer<typeof alertMatchSchema>;

export const alertMatchListSchema = z
  .object({ matches: z.array(alertMatchSchema), unread: z.int() })
  .meta({ id: "AlertMatchList" });

export const inboxQuerySchema = z.object({
  unread: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .describe("true: only the unread ones"),
});

export const markReadSchema = z
  .object({
    match_ids: z
      .array(z.string().min(1).max(64))
      .max(100)
      .optional()
      .describe("The matches to mark read; absent: every match of the alert"),
  })
  .meta({ id: "AlertMarkRead" });

export const previewSchema = z
  .object({
    matches: z
      .array(alertMatchedSchema)
      .describe("What it would have matched among the transcripts of its scope from the last 30 days (at most 20)"),
    matched: z.int().describe("How many of those transcripts it would have matched"),
    transcripts: z
      .int()
      .describe("How many transcripts came into its scope in the last 30 days and were looked at (at most 200)"),
  })
  .meta({ id: "AlertPreview" });

export type PreviewOut = z.infer<typeof previewSchema>;
