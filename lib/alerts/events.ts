import type { z } from "zod";
import { env } from "@/lib/env";
import type { WebhookPayload } from "@/lib/webhooks/events";
import type { alertEventSchema, alertMatchedSchema } from "@/lib/webhooks/schemas";

export type AlertMatchedOut = z.infer<typeof alertMatchedSchema>;

/** The `alert.matched` event: one transcript, or a digest's several. */
export function alertEvent(
  alert: { id: string; name: string; query: string },
  matches: AlertMatchedOut[],
  digest: boolean,
): WebhookPayload & z.infer<typeof alertEventSchema> {
  return {
    type: "alert.matched",
    timestamp: new Date().toISOString(),
    data: {
      alert_id: alert.id,
      alert_name: alert.name,
      query: alert.query,
      digest,
      matches,
      alert_url: new URL(`/v1/alerts/${alert.id}`, env().APP_URL).href,
    },
  };
}

/** The e-mail's text: each transcript, its moments with their seconds, lines and links. */
export function alertMailText(alert: { name: string; query: string }, matches: AlertMatchedOut[], digest: boolean) {
  const lines = [
    digest
      ? `Your alert "${alert.name}" matched ${matches.length} more transcripts today (past its daily cap):`
      : `Your alert "${alert.name}" (${alert.query}) matched a new transcript:`,
    "",
  ];
  for (const match of matches) {
    lines.push(match.title ?? match.transcript_id);
    for (const moment of match.moments) {
      const link = moment.links.page ?? moment.links.viewer ?? moment.links.source ?? "";
      lines.push(`  ${clock(moment.start)} (line ${moment.segment_index + 1}) ${moment.text}`, `    ${link}`);
    }
    lines.push("");
  }
  lines.push("Pause or delete the alert in the dashboard's Alerts page.");
  return lines.join("\n");
}

/** Seconds as h:mm:ss or m:ss. */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return hms[0] ? `${hms[0]}:${pad(hms[1]!)}:${pad(hms[2]!)}` : `${hms[1]}:${pad(hms[2]!)}`;
}
