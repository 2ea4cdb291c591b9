import { createHash } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import { clock } from "@/lib/alerts/events";
import { stillVisible } from "@/lib/alerts/scope";
import { feedUrl, serializeMatch } from "@/lib/alerts/serializers";

// An alert's matches as an Atom feed (RFC 4287) at a secret URL: the alert's `feedToken` (32 random bytes) is the
// path, so any feed reader can follow it without credentials, and the alert's JSON names it. The newest 100
// matches, one entry each: its transcript's title, its moments with their times, lines and links; only a title
// saying it is gone for a transcript the alert may no longer read.

// XML 1.0 allows no control characters but tab, newline and carriage return.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeXml = (value: string) =>
  value
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

export async function renderAlertFeed(token: string): Promise<string | null> {
  const db = await getDb();
  const alert = await db.alert.findUnique({ where: { feedToken: token } });
  if (!alert) return null;
  const paused = alert.pausedAt !== null;
  // A paused alert's feed lists nothing: pausing is how its owner stops what the URL shows, whoever holds it.
  const rows = paused
    ? []
    : await db.alertMatch.findMany({
        where: { alertId: alert.id },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 100,
      });
  const visible = await stillVisible(
    db,
    alert,
    rows.map((row) => row.transcriptId),
  );
  const matches = rows.map((row) => serializeMatch(row, visible.has(row.transcriptId)));
  const self = feedUrl(alert.feedToken);
  const updated = (matches[0]?.matched_at ?? (alert.pausedAt ?? alert.createdAt).toISOString()).replace(/\.\d+Z$/, "Z");
  const entries = matches.map((match) => {
    if (match.moments.length === 0)
      return [
        "<entry>",
        `<id>urn:verbatim:alert-match:${match.id}</id>`,
        "<title>A match no longer available</title>",
        `<updated>${match.matched_at.replace(/\.\d+Z$/, "Z")}</updated>`,
        '<summary type="text">Its transcript is no longer in this alert\'s reach.</summary>',
        "</entry>",
      ].join("");
    const first = match.moments[0];
    const link = first?.links.page ?? first?.links.viewer ?? first?.links.source ?? null;
    const summary = match.moments.map((m) => `${clock(m.start)} (line ${m.segment_index + 1}): ${m.text}`).join("\n");
    const html = match.moments
      .map((m) => {
        const href = m.links.page ?? m.links.viewer ?? m.links.source;
        const at = `${clock(m.start)}, line ${m.segment_index + 1}`;
        return `<p>${href ? `<a href="${escapeXml(href)}">${at}</a>` : at}: ${escapeXml(m.text)}</p>`;
      })
      .join("");
    return [
      "<entry>",
      `<id>urn:verbatim:alert-match:${match.id}</id>`,
      `<title>${escapeXml(match.title ?? match.transcript_id)}</title>`,
      `<updated>${match.matched_at.replace(/\.\d+Z$/, "Z")}</updated>`,
      link ? `<link rel="alternate" href="${escapeXml(link)}"/>` : "",
      `<summary type="text">${escapeXml(summary)}</summary>`,
      `<content type="html">${escapeXml(html)}</content>`,
      "</entry>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>urn:verbatim:alert:${alert.id}</id>`,
    `<title>${escapeXml(`Verbatim alert: ${alert.name}${paused ? " (paused)" : ""}`)}</title>`,
    `<subtitle>${escapeXml(paused ? `Paused: it lists no matches until it is resumed. ${alert.query}` : alert.query)}</subtitle>`,
    `<updated>${updated}</updated>`,
    "<author><name>Verbatim</name></author>",
    `<link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    ...entries,
    "</feed>",
  ].join("\n");
}

/** GET /alerts/{token}/feed.xml. */
export async function alertFeedResponse(request: Request, token: string): Promise<Response> {
  const body = await renderAlertFeed(token);
  if (body === null) throw errors.notFound("No alert has this feed.");
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache", "Referrer-Policy": "no-referrer" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/atom+xml; charset=utf-8" } });
}
