import { z } from "zod";
import {
  createAlertEndpoint,
  deleteAlertEndpoint,
  listAlertMatchesEndpoint,
  listAlertsEndpoint,
  updateAlertEndpoint,
} from "@/lib/alerts/endpoints";
import { createAlert, deleteAlert, listAlerts, listMatches, updateAlert } from "@/lib/alerts/manage-alerts";
import {
  ALERT_MODES,
  ALERT_SCOPES,
  alertListSchema,
  alertMatchListSchema,
  alertSchema,
  createAlertSchema,
} from "@/lib/alerts/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf } from "./inputs";
import { run } from "./run-tool";

// The alerts' tools (saved searches), each its REST operation's function under its rate-limit row and role:
// create, list, read the matches, pause or resume, delete. One file: five thin wrappers of one domain.

const idInput = z.string().min(1).max(64).describe("The alert's id (from list_alerts)");

export function registerAlertTools(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "create_alert",
    {
      title: "Save a search as an alert",
      description:
        'Saves a search that fires when a transcript newly in its scope matches (a new library entry, a transcript published, a correction): delivered once per transcript to the account\'s webhooks (alert.matched), by e-mail when asked, in an Atom feed and an inbox (get_alert_matches). mode words: words, "phrases", -word, OR (a query of only -excluded words is refused); mode meaning: a question, matched by meaning at least `closeness` alike.',
      inputSchema: {
        query: z.string().min(1).max(500),
        name: z.string().min(1).max(100).optional(),
        mode: z.enum(ALERT_MODES).optional(),
        closeness: z.number().min(0.3).max(1).optional(),
        scope: z
          .enum(ALERT_SCOPES)
          .optional()
          .describe("library (default), team (team_id), follows (follow_ids) or public"),
        team_id: z.string().max(64).optional(),
        follow_ids: z.array(z.string().max(64)).max(50).optional(),
        email: z.boolean().optional(),
      },
      outputSchema: outputOf(alertSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      run(ctx, createAlertEndpoint, async () => {
        const request = createAlertSchema.parse({
          query: args.query,
          name: args.name,
          mode: args.mode,
          closeness: args.closeness,
          scope: { kind: args.scope ?? "library", team_id: args.team_id ?? null, follow_ids: args.follow_ids ?? [] },
          email: args.email,
        });
        const alert = await createAlert(ctx.principal, request);
        return {
          content: [
            {
              type: "text",
              text: `Saved alert "${alert.name}" (${alert.id}) over ${alert.scope.kind}. Its Atom feed: ${alert.feed_url}`,
            },
          ],
          structuredContent: alert,
        };
      }),
  );

  tool(
    "list_alerts",
    {
      title: "List my alerts",
      description: "The account's saved searches (alerts), newest first, each with its unread matches.",
      inputSchema: {},
      outputSchema: outputOf(alertListSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      run(ctx, listAlertsEndpoint, async () => {
        const list = await listAlerts(ctx.userId);
        const text =
          list.alerts.length === 0
            ? "No alerts yet."
            : list.alerts
                .map((a) => `${a.id}: "${a.query}" (${a.scope.kind}${a.paused ? ", paused" : ""}), ${a.unread} unread`)
                .join("\n");
        return { content: [{ type: "text", text }], structuredContent: list };
      }),
  );

  tool(
    "get_alert_matches",
    {
      title: "Read an alert's matches",
      description:
        "An alert's inbox: its last 100 matches, newest first, each a transcript with its matching moments (seconds, line, links).",
      inputSchema: { id: idInput, unread_only: z.boolean().optional() },
      outputSchema: outputOf(alertMatchListSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, unread_only }) =>
      run(ctx, listAlertMatchesEndpoint, async () => {
        const list = await listMatches(ctx.userId, id, unread_only ?? false);
        const text =
          list.matches.length === 0
            ? "No matches yet."
            : list.matches
                .map(
                  (m) =>
                    `${m.title ?? m.transcript_id} (${m.matched_at}${m.read ? "" : ", unread"})\n` +
                    m.moments
                      .map(
                        (x) =>
                          `  ${Math.floor(x.start)}s, line ${x.segment_index + 1}: ${x.text} ${x.links.page ?? x.links.viewer ?? ""}`,
                      )
                      .join("\n"),
                )
                .join("\n");
        return { content: [{ type: "text", text }], structuredContent: list };
      }),
  );

  tool(
    "pause_alert",
    {
      title: "Pause or resume an alert",
      description: "paused true stops the alert at once (nothing more is matched or sent); false resumes it.",
      inputSchema: { id: idInput, paused: z.boolean() },
      outputSchema: outputOf(alertSchema),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, paused }) =>
      run(ctx, updateAlertEndpoint, async () => {
        const alert = await updateAlert(ctx.userId, id, { paused });
        return {
          content: [{ type: "text", text: `Alert ${alert.id} is ${alert.paused ? "paused" : "active"}.` }],
          structuredContent: alert,
        };
      }),
  );

  tool(
    "delete_alert",
    {
      title: "Delete an alert",
      description: "Deletes an alert, its matches and its feed; its unsent messages are stopped.",
      inputSchema: { id: idInput },
      outputSchema: outputOf(z.object({ id: z.string(), deleted: z.boolean() })),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) =>
      run(ctx, deleteAlertEndpoint, async () => {
        await deleteAlert(ctx.userId, id);
        return { content: [{ type: "text", text: `Deleted alert ${id}.` }], structuredContent: { id, deleted: true } };
      }),
  );
}
