import { defineEndpoint } from "@/lib/http/endpoint";
import {
  addShowSchema,
  alertFeedParamsSchema,
  alertListSchema,
  alertMatchListSchema,
  alertParamsSchema,
  alertSchema,
  createAlertSchema,
  inboxQuerySchema,
  markReadSchema,
  previewSchema,
  updateAlertSchema,
} from "@/lib/alerts/schemas";

const tag = "Alerts";

export const createAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts",
  tag,
  summary: "Save a search as an alert: it fires when a transcript newly in its scope matches",
  description:
    "A transcript newly in the scope (a library entry done: a link, an upload, an import, a followed episode; a transcript published; a correction saved) that matches is delivered once per alert and transcript, with its matching moments: as an `alert.matched` webhook event to the account's endpoints that chose it, by e-mail to the person who saved it (`email`), in the alert's Atom feed (`feed_url`, a secret URL) and in its inbox (GET /v1/alerts/{id}/matches). `mode: words` reads the query as search does (words, \"phrases\", -word, OR); a query that could match everything (only -excluded or common words) is a 422. `mode: meaning` compares the query's meaning with each passage's, at least `closeness` alike. At most ALERT_MAX_FREE / _PRO / _ULTRA alerts per account by its tier; past ALERT_MAX_MATCHES_PER_DAY matches a day an alert's further matches go out in one digest when the day ends.",
  auth: "use",
  rateLimit: "alert",
  body: createAlertSchema,
  status: 201,
  response: alertSchema,
  errors: {
    404: "No such team (that you are a member of) or follow",
    409: "too_many_alerts: the account keeps the most alerts its tier allows",
    503: "meaning_not_configured: search by meaning is off on this server",
  },
});

export const listAlertsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/alerts",
  tag,
  summary: "The account's alerts, newest first, with their unread matches",
  auth: "use",
  rateLimit: "account",
  response: alertListSchema,
});

export const getAlertEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/alerts/{id}",
  tag,
  summary: "One alert",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  response: alertSchema,
  errors: { 404: "No such alert in this account" },
});

export const updateAlertEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/v1/alerts/{id}",
  tag,
  summary: "Rename, change the query, pause (at once: nothing more is matched or sent) or resume an alert",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  body: updateAlertSchema,
  response: alertSchema,
  errors: { 404: "No such alert in this account" },
});

export const deleteAlertEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/alerts/{id}",
  tag,
  summary: "Delete an alert, its matches and its feed; its unsent messages are stopped",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  status: 204,
  response: null,
  errors: { 404: "No such alert in this account" },
});

export const addShowToAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts/{id}/follows",
  tag,
  summary: "Add a show to an alert of chosen follows: followed first when the account does not follow it yet",
  description:
    "`url` is what POST /v1/follows takes (a podcast feed, an Apple Podcasts show link, a YouTube channel or playlist URL). When the account follows that show already, its follow is the one added; otherwise it is followed now, from its next item on (no backfill), in `lang`, as POST /v1/follows would. An alert that watches it already is answered as it is. At most ALERT_MAX_FOLLOWS follows per alert.",
  auth: "use",
  // It may list the show as a new follow does: the follows' own limit.
  rateLimit: "follow",
  params: alertParamsSchema,
  body: addShowSchema,
  response: alertSchema,
  errors: {
    404: "No such alert in this account; or Apple Podcasts, the feed or YouTube does not know that show",
    409: "too_many_follows: the account follows FOLLOW_MAX_PER_USER shows",
    422: "The alert does not watch chosen follows (its scope is a library or every published transcript) or watches the most follows one alert may; or the URL is not a feed (`not_a_feed`, `feed_invalid`), an audio file, internal",
    502: "The feed's host, Apple's lookup or YouTube failed (upstream_failed, upstream_dns_failed, upstream_refused, …)",
    503: "YouTube refused to list the channel or playlist for now",
    504: "upstream_timeout: the feed or YouTube did not answer in time",
  },
});

export const listAlertMatchesEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/alerts/{id}/matches",
  tag,
  summary: "An alert's inbox: its last 100 matches, newest first, each with its moments and how it was delivered",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  query: inboxQuerySchema,
  response: alertMatchListSchema,
  errors: { 404: "No such alert in this account" },
});

export const markAlertReadEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts/{id}/read",
  tag,
  summary: "Mark an alert's matches read (the given ones, or all)",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  body: markReadSchema,
  response: alertMatchListSchema,
  errors: { 404: "No such alert in this account" },
});

export const previewNewAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts/preview",
  tag,
  summary: "What an alert would have matched in the last 30 days, before it is saved (nothing is kept)",
  description:
    'The body is POST /v1/alerts\'s. `matched` of `transcripts` (those that came into its scope in the last 30 days, at most the 200 newest) would have matched, by words as search reads them or by meaning as search decides what answers (the same closeness and the same "nothing close"); at most 20 of them are answered with their moments.',
  auth: "use",
  rateLimit: "alertPreview",
  body: createAlertSchema,
  response: previewSchema,
  errors: {
    404: "No such team (that you are a member of) or follow",
    503: "meaning_not_configured: search by meaning is off on this server",
  },
});

export const previewAlertEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts/{id}/preview",
  tag,
  summary: "What the alert would have matched among the transcripts that came into its scope in the last 30 days",
  description: "At most the 200 newest of those transcripts are looked at, and at most 20 matches answered.",
  auth: "use",
  rateLimit: "alertPreview",
  params: alertParamsSchema,
  response: previewSchema,
  errors: { 404: "No such alert in this account" },
});

export const rotateAlertFeedEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/alerts/{id}/rotate-feed",
  tag,
  summary: "Give the alert a new feed URL: the old one answers 404 at once",
  description:
    "For a feed URL that reached someone who should no longer read it (a member who left the team, a shared link). In a team, the person who saved the alert or an admin.",
  auth: "use",
  rateLimit: "account",
  params: alertParamsSchema,
  response: alertSchema,
  errors: { 403: "forbidden: in a team, neither the alert's maker nor an admin", 404: "No such alert in this account" },
});

export const alertFeedEndpoint = defineEndpoint({
  method: "GET",
  path: "/alerts/{token}/feed.xml",
  tag,
  summary: "An alert's matches as an Atom feed, at the secret URL its `feed_url` names",
  description:
    "No credentials: the URL is the secret (POST /v1/alerts/{id}/rotate-feed replaces it; deleting the alert ends it). The newest 100 matches, one entry each, with its moments' times, lines and links; a match whose transcript the alert can no longer read (deleted from the library, unpublished, a team left) keeps only its entry, and a paused alert's feed lists none.",
  auth: "none",
  rateLimit: "publicRead",
  params: alertFeedParamsSchema,
  content: { "application/atom+xml": "text" },
  errors: { 304: "Not modified", 404: "No alert has this feed", 429: "Too many requests from this address" },
});
