import { z } from "zod";

export const DESTINATION_KINDS = ["folder", "notion"] as const;

const noControl = (value: string) => !/[\u0000-\u001f\u007f]/.test(value);

export const createDestinationSchema = z
  .object({
    kind: z.enum(DESTINATION_KINDS).describe("folder: a folder on the server; notion: a Notion database"),
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine(noControl, "must not hold control characters")
      .optional()
      .describe("What the dashboard calls it (default: the folder or `Notion`)"),
    path: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe("kind folder: the folder, relative to the server's EXPORT_FOLDER_ROOT (made when missing)"),
    database_id: z
      .string()
      .trim()
      .regex(
        /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/,
        "must be a Notion database id",
      )
      .optional()
      .describe("kind notion: the database each transcript becomes a page in (shared with the integration)"),
    token: z
      .string()
      .trim()
      .min(8)
      .max(300)
      .regex(/^\S+$/, "must be a Notion integration token")
      .optional()
      .describe("kind notion: the integration's token; stored encrypted and never shown again"),
  })
  .strict()
  .superRefine((body, ctx) => {
    const needs = body.kind === "folder" ? (["path"] as const) : (["database_id", "token"] as const);
    const refuses = body.kind === "folder" ? (["database_id", "token"] as const) : (["path"] as const);
    for (const key of needs)
      if (body[key] === undefined)
        ctx.addIssue({ code: "custom", message: `is required for kind ${body.kind}`, path: [key] });
    for (const key of refuses)
      if (body[key] !== undefined)
        ctx.addIssue({ code: "custom", message: `is not for kind ${body.kind}`, path: [key] });
  })
  .meta({ id: "ExportDestinationCreate" });

export type CreateDestinationRequest = z.output<typeof createDestinationSchema>;

export const destinationSchema = z
  .object({
    id: z.string(),
    kind: z.enum(DESTINATION_KINDS),
    name: z.string(),
    path: z.string().nullable().describe("kind folder: the folder under EXPORT_FOLDER_ROOT"),
    database_id: z.string().nullable().describe("kind notion: the database"),
    has_token: z.boolean().describe("kind notion: a token is stored (encrypted; it is never shown)"),
    state: z
      .enum(["ok", "failing", "disabled"])
      .describe(
        "ok: its last attempt succeeded (or none failed yet); failing: retried with backoff; disabled: stopped",
      ),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    last_error: z.string().nullable().describe("Why the last failed attempt failed"),
    last_error_at: z.string().nullable(),
    failing_since: z.string().nullable().describe("First failed attempt since the last success"),
    next_attempt_at: z.string().nullable().describe("While failing: when deliveries to it are tried again"),
    last_delivered_at: z.string().nullable(),
    deliveries: z
      .object({
        pending: z.number().int(),
        delivered: z.number().int(),
        kept: z.number().int().describe("Notes the person edited outside Verbatim's block, left as they are"),
        failed: z.number().int().describe("Given up after EXPORT_MAX_ATTEMPTS attempts"),
      })
      .describe("This destination's transcripts by state"),
    last_note: z
      .string()
      .nullable()
      .describe("What the last delivery that did not simply write said (a kept edit, a page left behind)"),
    created_at: z.string(),
  })
  .meta({ id: "ExportDestination" });

export type DestinationOut = z.infer<typeof destinationSchema>;

export const destinationListSchema = z
  .object({ destinations: z.array(destinationSchema) })
  .meta({ id: "ExportDestinationList" });

export const destinationParamsSchema = z.object({ id: z.string().min(1).max(64) });
