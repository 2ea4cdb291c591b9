import { z } from "zod";
import { defineEndpoint } from "@/lib/http/endpoint";
import {
  createFollowSchema,
  followDetailSchema,
  followParamsSchema,
  followSchema,
  pushCallbackParamsSchema,
  updateFollowSchema,
} from "@/lib/follows/schemas";

const tag = "Follows";

export const createFollowEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/follows",
  tag,
  summary: "Follow a podcast feed, Apple Podcasts show, or YouTube channel or playlist",
  description:
    "The source is listed now; what it already holds is remembered, not transcribed (unless `backfill` asks for the latest N, at most " +
    "FOLLOW_MAX_BACKFILL). It is then checked about every FOLLOW_CHECK_MINUTES (jittered; conditional requests; backing off after " +
    "failures), and each new item is transcribed as POST /v1/transcript would (a publisher's transcript or captions first, else speech " +
    "recognition), charged once. When the allowance runs out the follow pauses (`state: allowance`) until the next period. At most " +
    "FOLLOW_MAX_PER_USER follows per user.",
  auth: "use",
  fieldAuth: { webhook_url: "webhooks" },
  rateLimit: "follow",
  body: createFollowSchema,
  status: 201,
  response: followSchema,
  errors: {
    403: "webhook_url sent with an OAuth app's or a device login's token",
    404: "Apple Podcasts, the feed or YouTube does not know that show, channel or playlist",
    409: "You follow this source already (`follow_exists`), or FOLLOW_MAX_PER_USER shows (`too_many_follows`)",
    422: "The URL is not a feed (`not_a_feed`, `feed_invalid`), an audio file, internal, or backfill is over FOLLOW_MAX_BACKFILL",
    502: "The feed's host, Apple's lookup or YouTube failed (upstream_failed, upstream_dns_failed, upstream_refused, …)",
    503: "YouTube refused to list the channel or playlist for now",
    504: "upstream_timeout: the feed or YouTube did not answer in time",
  },
});

export const listFollowsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/follows",
  tag,
  summary: "The caller's follows, newest first",
  auth: "use",
  rateLimit: "account",
  response: z.array(followSchema),
});

export const getFollowEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/follows/{id}",
  tag,
  summary: "One follow with the items it found last, their jobs and transcripts",
  auth: "use",
  rateLimit: "account",
  params: followParamsSchema,
  response: followDetailSchema,
  errors: { 404: "No such follow for this user (another user's answers the same)" },
});

export const updateFollowEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/v1/follows/{id}",
  tag,
  summary: "Pause or resume a follow, or change its settings",
  description:
    "`state: paused` stops its checks; `state: active` resumes it and checks at once. `lang`, `format`, `publish` and `webhook_url` apply to items found from now on.",
  auth: "use",
  fieldAuth: { webhook_url: "webhooks" },
  rateLimit: "account",
  params: followParamsSchema,
  body: updateFollowSchema,
  response: followSchema,
  errors: {
    403: "webhook_url sent with an OAuth app's or a device login's token",
    404: "No such follow for this user",
  },
});

export const deleteFollowEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/follows/{id}",
  tag,
  summary: "Stop following; transcripts already made stay in the history",
  auth: "use",
  rateLimit: "account",
  params: followParamsSchema,
  status: 204,
  response: null,
  errors: { 404: "No such follow for this user" },
});

export const checkFollowEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/follows/{id}/check",
  tag,
  summary: "Check a follow now",
  description:
    "The check runs on the job system as soon as a runner is free; the answer is the follow, with `next_check_at` now. Limited to FOLLOW_CHECKS_PER_HOUR per user.",
  auth: "use",
  rateLimit: "followCheck",
  params: followParamsSchema,
  status: 202,
  response: followSchema,
  errors: { 404: "No such follow for this user", 409: "The follow is paused (`follow_paused`): resume it first" },
});

export const verifyPushEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/webhooks/websub/{token}",
  tag,
  summary: "A WebSub hub verifies a followed show's subscription (W3C WebSub §5.3)",
  description:
    "Called by the hub, not by clients, at the callback it was given for one subscription (a random token, new for each new subscription). `hub.mode=subscribe` is answered with `hub.challenge` while the follow is waiting for that subscription or renewing it, for its own `hub.topic`; `unsubscribe` only once the follow no longer wants push (or no follow has the token); `denied` is noted on the follow. Anything else: 404.",
  auth: "none",
  rateLimit: "websub",
  params: pushCallbackParamsSchema,
  content: { "text/plain": "text" },
  errors: {
    404: "Not an intent of this subscription (unknown token, another topic, or a mode the follow does not want)",
  },
});

export const receivePushEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/webhooks/websub/{token}",
  tag,
  summary: "A WebSub hub pushes a followed show's new content (W3C WebSub §7)",
  description:
    "Called by the hub, not by clients, at the callback it was given for one subscription. Always 202 (the spec: a delivery whose `X-Hub-Signature` is not the HMAC of the body with the subscription's secret is acknowledged and ignored, and so is one for a token no follow has); a signed one makes the follow checked now. The body is at most 1 MiB.",
  auth: "none",
  rateLimit: "websub",
  params: pushCallbackParamsSchema,
  status: 202,
  response: null,
  errors: { 413: "The body is larger than 1 MiB" },
});
