import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { ApiError, errors } from "@/lib/http/errors";
import { limitUser } from "@/lib/http/rate-limits";
import { readBodyBytes } from "@/lib/http/body";
import { log } from "@/lib/observability/logger";
import { checkSoon } from "@/lib/follows/manage-follow";
import { openPushSecret, storedToken } from "@/lib/follows/push-subscribe";

// /v1/webhooks/websub/{token}: what a WebSub hub calls (W3C WebSub §5.3 and §7-8), the token naming one
// subscription of one follow (push-subscribe.ts). GET: the hub verifies an intent, answered with its challenge only
// when it is that follow's topic and what the follow wants; POST: new content, whose body is only a signal here
// (the check reads the source itself), acted on when its X-Hub-Signature is the subscription's secret's.

/** A pushed feed is a signal to check; nothing near this size is needed to see one. */
export const MAX_PUSH_BYTES = 1024 * 1024;
/** A check already due this soon is not asked for again. */
const DUE_SOON_MS = 5_000;
const MAX_LEASE_SECONDS = 366 * 24 * 3600;
/** Pushes remembered per follow (their bodies' digests, newest first): a replay within them is ignored. */
export const PUSHES_REMEMBERED = 64;

const ALGORITHMS: Record<string, string> = { sha1: "sha1", sha256: "sha256", sha384: "sha384", sha512: "sha512" };

/** Whether `header` (`sha256=<hex>`, …) is the HMAC of `body` under `secret`, compared in constant time. */
export function validSignature(header: string | null, body: Uint8Array, secret: string): boolean {
  const match = /^(sha1|sha256|sha384|sha512)=([0-9a-f]+)$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac(ALGORITHMS[match[1]!.toLowerCase()]!, secret).update(body).digest();
  const given = Buffer.from(match[2]!.toLowerCase(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function text(body: string): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}

const notOurs = () => errors.notFound("No subscription here matches that request.");

/**
 * GET: the hub's verification of intent. `subscribe` is confirmed while the follow is waiting for it or renewing
 * (and becomes active for the lease the hub grants); `unsubscribe` only when the follow no longer wants push (it
 * is gone, paused, or moved to another topic); `denied` is noted on the follow. Anything else: 404.
 */
export async function verifyPushIntent(callback: string, query: URLSearchParams): Promise<Response> {
  const mode = query.get("hub.mode");
  const topic = query.get("hub.topic");
  const challenge = query.get("hub.challenge");
  const db = await getDb();
  const token = storedToken(callback);
  const follow = token === null ? null : await db.follow.findUnique({ where: { pushToken: token } });
  if (mode === "subscribe") {
    if (!follow || !challenge || !topic || follow.state === "paused" || follow.pushTopic !== topic) throw notOurs();
    if (follow.pushState !== "pending" && follow.pushState !== "active") throw notOurs();
    const granted = Number(query.get("hub.lease_seconds"));
    if (!Number.isInteger(granted) || granted <= 0) throw notOurs();
    const confirmed = await db.follow.updateMany({
      where: { pushToken: token, pushTopic: topic, pushState: { in: ["pending", "active"] }, state: { not: "paused" } },
      data: {
        pushState: "active",
        pushLeaseEndsAt: new Date(Date.now() + Math.min(granted, MAX_LEASE_SECONDS) * 1000),
        pushNote: null,
      },
    });
    if (confirmed.count === 0) throw notOurs();
    return text(challenge);
  }
  if (mode === "unsubscribe") {
    if (!challenge || !topic) throw notOurs();
    const wanted =
      follow &&
      follow.state !== "paused" &&
      follow.pushTopic === topic &&
      (follow.pushState === "pending" || follow.pushState === "active");
    if (wanted) throw notOurs();
    return text(challenge);
  }
  if (mode === "denied") {
    if (!follow || !topic || follow.pushTopic !== topic) throw notOurs();
    const reason = (query.get("hub.reason") ?? "").slice(0, 300);
    await db.follow.updateMany({
      where: { pushToken: token, pushTopic: topic },
      data: {
        pushState: "failed",
        pushLeaseEndsAt: null,
        pushNote: storableText(`Polled only: the hub denied the subscription${reason ? `: ${reason}` : ""}.`),
      },
    });
    return text("");
  }
  throw notOurs();
}

export type PushOutcome = "checked" | "due" | "ignored" | "replayed" | "limited";

/**
 * Remembers a signed push by its body's digest, in one conditional update (two deliveries of the same body at
 * once: one of them is first). False when the follow has it among its last PUSHES_REMEMBERED.
 */
async function firstSeen(followId: string, body: Uint8Array): Promise<boolean> {
  const db = await getDb();
  const digest = createHash("sha256").update(body).digest("base64url");
  const updated = await db.$executeRaw`
    UPDATE "Follow" SET "pushSeen" = (ARRAY[${digest}]::text[] || coalesce("pushSeen", ARRAY[]::text[]))[1:${PUSHES_REMEMBERED}]
    WHERE "id" = ${followId} AND NOT (${digest} = ANY(coalesce("pushSeen", ARRAY[]::text[])))`;
  return updated === 1;
}

/** A push that would start a check counts against the user's checks per hour, like "check now". */
async function withinCheckLimit(userId: string): Promise<boolean> {
  try {
    await limitUser("followCheck", userId);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") return false;
    throw error;
  }
}

/**
 * POST: content distribution. Always acknowledged (the spec: a bad signature is accepted and ignored, so a
 * forger learns nothing); a body signed with the subscription's secret makes the follow checked now through the
 * "check now" path, unless a check is due within seconds anyway, the same body came before (a replay), or the
 * user's checks per hour (FOLLOW_CHECKS_PER_HOUR, shared with "check now") are spent: the scheduled checks
 * then find what it announced. A secret that no longer opens (AUTH_SECRET
 * changed) verifies nothing: the push is ignored like a forged one until the renewal makes a new secret.
 */
export async function receivePush(callback: string, request: Request): Promise<PushOutcome> {
  const body = await readBodyBytes(request, {
    maxBytes: MAX_PUSH_BYTES,
    tooLarge: () => errors.payloadTooLarge("A pushed feed is never larger than 1 MiB here."),
  });
  const db = await getDb();
  const token = storedToken(callback);
  const follow = token === null ? null : await db.follow.findUnique({ where: { pushToken: token } });
  if (!follow || follow.state === "paused") return "ignored";
  const secret = openPushSecret(follow);
  if (!secret || !validSignature(request.headers.get("x-hub-signature"), body, secret)) {
    log.info({ followId: follow.id }, "follow push: a delivery without a valid X-Hub-Signature was ignored");
    return "ignored";
  }
  if (!(await firstSeen(follow.id, body))) {
    log.info({ followId: follow.id }, "follow push: a notification already received was ignored");
    return "replayed";
  }
  if (follow.checkJobId && follow.nextCheckAt && follow.nextCheckAt.getTime() <= Date.now() + DUE_SOON_MS) return "due";
  if (!(await withinCheckLimit(follow.userId))) {
    log.info({ followId: follow.id }, "follow push: over the checks per hour, left to the next scheduled check");
    return "limited";
  }
  await checkSoon(follow.id);
  return "checked";
}
