import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { openSecret, sealSecret } from "@/lib/auth/secret-box";
import { getDb } from "@/lib/db/client";
import { storableText } from "@/lib/db/storable-text";
import { env, type Env } from "@/lib/env";
import { checkHost, checkUrl } from "@/lib/http/outbound";
import type { Follow } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";
import { followDeps } from "@/lib/follows/deps";

// The subscriber side of W3C WebSub (§5.1): after a good check of a follow whose source names a hub, ask the hub
// to push the topic to /v1/webhooks/websub/{token}, signed with a secret of the subscription's own. The token is
// random and new for each new subscription (a renewal keeps it), so the callback does not name the follow and a
// hub's calls for an earlier subscription no longer match; the secret is stored sealed (lib/auth/secret-box.ts).
// The hub's verification of the intent (push-callback.ts) makes the subscription active; until then, and whenever
// the hub refuses, fails or lets the lease lapse, the follow is polled as before, with the reason in `push.note`.

/** Asked of the hub; the hub grants what it likes (YouTube's: 5 days) and says so when it verifies. */
export const LEASE_SECONDS = 10 * 24 * 3600;
/** An active lease is renewed at the first check within this of its end (the schedule puts one there). */
export const RENEW_BEFORE_MS = 2 * 3600_000;
/** A subscription the hub has not verified this long after asking is asked for again. */
const PENDING_MS = 3600_000;
/** After a refusal or failure, the hub is asked again this much later (polling goes on meanwhile). */
const RETRY_MS = 24 * 3600_000;
const MAX_HUB_ANSWER = 64 * 1024;

/** The callback a hub is given for a subscription, named by its stored token (callbackToken). */
export function pushCallbackUrl(token: string): string {
  return new URL(`/v1/webhooks/websub/${encodeURIComponent(callbackToken(token))}`, env().APP_URL).href;
}

/** A new subscription's stored token: 32 random bytes, base64url (43 characters). */
export function newPushToken(): string {
  return randomBytes(32).toString("base64url");
}

function tokenMac(token: string): string {
  return createHmac("sha256", authSecret()).update("verbatim websub callback\0").update(token).digest("base64url");
}

/**
 * The callback's path segment for a stored token: `<token>.<its MAC under the auth secret>`. The stored column alone
 * (a database dump) names no callback that answers; a changed AUTH_SECRET ends old callbacks like old secrets.
 */
export function callbackToken(token: string): string {
  return `${token}.${tokenMac(token)}`;
}

/** The stored token a callback's path segment names, or null when its MAC is not this server's. */
export function storedToken(callback: string): string | null {
  const dot = callback.indexOf(".");
  if (dot <= 0) return null;
  const token = callback.slice(0, dot);
  const given = Buffer.from(callback.slice(dot + 1));
  const expected = Buffer.from(tokenMac(token));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/**
 * The secret the follow's pushes are signed with, or null when it has none or it cannot be opened (AUTH_SECRET
 * changed since it was sealed): pushes are then unverifiable, and the next subscribe or renewal makes a new one.
 */
export function openPushSecret(follow: Pick<Follow, "id" | "pushSecretCipher">): string | null {
  if (!follow.pushSecretCipher) return null;
  try {
    return openSecret("websubPush", follow.pushSecretCipher);
  } catch (error) {
    log.warn(
      { err: error, followId: follow.id },
      "follow push: the push secret cannot be opened (AUTH_SECRET changed?)",
    );
    return null;
  }
}

/** Why a hub could not reach this server's callbacks (a loopback or private APP_URL), or null. */
export function callbackProblem(
  settings: Pick<Env, "APP_URL" | "FOLLOW_PUSH_PRIVATE_CALLBACK"> = env(),
): string | null {
  if (settings.FOLLOW_PUSH_PRIVATE_CALLBACK) return null;
  try {
    checkHost(
      checkUrl(settings.APP_URL)
        .hostname.replace(/^\[(.*)\]$/, "$1")
        .toLowerCase(),
    );
    return null;
  } catch {
    return `Polled only: APP_URL (${settings.APP_URL}) is not reachable from the internet, so a WebSub hub could not call back.`;
  }
}

/** Whether a check should (re)subscribe this follow now. */
export function wantsSubscribe(
  follow: Pick<Follow, "state" | "pushHub" | "pushState" | "pushLeaseEndsAt" | "pushRequestedAt">,
  now = Date.now(),
): boolean {
  if (follow.state === "paused" || !follow.pushHub) return false;
  const asked = follow.pushRequestedAt?.getTime() ?? 0;
  switch (follow.pushState) {
    case "active":
      return !follow.pushLeaseEndsAt || follow.pushLeaseEndsAt.getTime() - now <= RENEW_BEFORE_MS;
    case "pending":
      return now - asked >= PENDING_MS;
    case "failed":
      return now - asked >= RETRY_MS;
    default:
      return true;
  }
}

/** Whether pushes are arriving: the fallback poll may then wait FOLLOW_PUSH_POLL_HOURS. */
export function pushLive(follow: Pick<Follow, "pushState" | "pushLeaseEndsAt">, now = Date.now()): boolean {
  return follow.pushState === "active" && !!follow.pushLeaseEndsAt && follow.pushLeaseEndsAt.getTime() > now;
}

type HubAnswer = { ok: true } | { ok: false; reason: string };

/** One form-encoded request to a hub (§5.1), through the guard, within FOLLOW_PUSH_TIMEOUT_SECONDS. */
async function askHub(hub: string, fields: Record<string, string>, signal?: AbortSignal): Promise<HubAnswer> {
  const timeoutMs = env().FOLLOW_PUSH_TIMEOUT_SECONDS * 1000;
  try {
    const response = await followDeps().outbound.safeFetchBuffer(hub, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      timeoutMs,
      connectTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs,
      maxBytes: MAX_HUB_ANSWER,
      followRedirects: false,
      retries: 0,
      ...(signal ? { signal } : {}),
    });
    if (response.status === 202 || response.status === 204) return { ok: true };
    const said = response.body.toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200);
    return { ok: false, reason: `the hub answered HTTP ${response.status}${said ? `: ${said}` : ""}` };
  } catch (error) {
    return {
      ok: false,
      reason: `the hub could not be reached (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/**
 * Subscribes (or renews) the follow at its hub when a check finds that due (wantsSubscribe). Never throws and
 * never holds a check up longer than the hub's deadline: a failure is noted on the follow, which goes on polling.
 * The state is `pending` before the request leaves, since a hub may verify the intent before it answers.
 */
export async function ensurePush(followId: string, signal?: AbortSignal): Promise<void> {
  try {
    const db = await getDb();
    const follow = await db.follow.findUnique({ where: { id: followId } });
    if (!follow || !follow.pushHub || !follow.pushTopic || !wantsSubscribe(follow)) return;
    const requestedAt = new Date();
    const problem = callbackProblem();
    if (problem) {
      await db.follow.updateMany({
        where: { id: followId },
        data: { pushState: "failed", pushNote: problem, pushRequestedAt: requestedAt },
      });
      return;
    }
    // A renewal keeps the callback (and the secret, while it opens); a new subscription gets its own.
    const renewed = follow.pushState === "active" ? follow.pushToken : null;
    const token = renewed ?? newPushToken();
    const secret = (renewed ? openPushSecret(follow) : null) ?? randomBytes(32).toString("hex");
    const claimed = await db.follow.updateMany({
      where: { id: followId, pushRequestedAt: follow.pushRequestedAt, state: { not: "paused" } },
      data: {
        pushToken: token,
        pushSecretCipher: sealSecret("websubPush", secret),
        pushRequestedAt: requestedAt,
        ...(follow.pushState === "active" ? {} : { pushState: "pending", pushNote: null }),
      },
    });
    if (claimed.count === 0) return; // another check asked just now
    const answer = await askHub(
      follow.pushHub,
      {
        "hub.mode": "subscribe",
        "hub.topic": follow.pushTopic,
        "hub.callback": pushCallbackUrl(token),
        "hub.secret": secret,
        "hub.lease_seconds": String(LEASE_SECONDS),
      },
      signal,
    );
    if (answer.ok) return;
    // Unless the hub verified the intent meanwhile (a hub may verify before it answers, and its answer may then
    // come too late): a verified subscription stands whatever became of the answer.
    const unverified =
      follow.pushState === "active" ? { pushLeaseEndsAt: follow.pushLeaseEndsAt } : { pushState: "pending" as const };
    await db.follow.updateMany({
      where: { id: followId, pushRequestedAt: requestedAt, ...unverified },
      data: {
        pushState: "failed",
        pushNote: storableText(`Polled only: subscribing for push failed, ${answer.reason}.`.slice(0, 1000)),
      },
    });
  } catch (error) {
    log.warn({ err: error, followId }, "follow push: subscribing failed");
  }
}

export type PushSubscription = Pick<Follow, "id" | "pushHub" | "pushTopic" | "pushState" | "pushToken">;

/** Asks the hub to stop pushing this topic here (a paused or deleted follow); best effort, never throws. */
export async function unsubscribePush(follow: PushSubscription) {
  if (!follow.pushHub || !follow.pushTopic || !follow.pushToken) return;
  if (follow.pushState !== "active" && follow.pushState !== "pending") return;
  const answer = await askHub(follow.pushHub, {
    "hub.mode": "unsubscribe",
    "hub.topic": follow.pushTopic,
    "hub.callback": pushCallbackUrl(follow.pushToken),
  });
  if (!answer.ok) log.info({ followId: follow.id, reason: answer.reason }, "follow push: unsubscribing failed");
}

/** Runs `unsubscribePush` without holding up the answer that paused or deleted the follow. */
export function unsubscribeLater(follow: PushSubscription): void {
  void unsubscribePush(follow).catch((error: unknown) =>
    log.warn({ err: error, followId: follow.id }, "follow push: unsubscribing failed"),
  );
}
