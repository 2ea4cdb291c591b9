import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "@/lib/env";
import { errors } from "@/lib/http/errors";
import { clientAddress } from "@/lib/http/client-address";
import { getDb } from "@/lib/db/client";
import type { Tier } from "@/lib/generated/prisma/client";
import { log } from "@/lib/observability/logger";

// Every rate limit of the app, in one table. Endpoints name the row that applies (`rateLimit: "transcript"`
// in their definition) and withApi applies it; the sign-in flows and job creation call `consume` directly.
// Counts live in process memory (rate-limiter-flexible's RateLimiterMemory, whose expired keys are removed
// one by one), or in Redis when REDIS_URL is set, so that several app processes share one count.

type PerTier = Record<Tier, number>;

interface Limit {
  /** Whose count: the signed-in user (address when anonymous), the client address, or an email address. */
  by: "user" | "address" | "email";
  /** Requests allowed per window; per tier for paid work; a function for limits that are settings. */
  points: number | PerTier | (() => number);
  /** Window length in seconds. */
  seconds: number;
}

export const RATE_LIMITS = {
  // Public reads.
  publicRead: { by: "address", points: 300, seconds: 60 }, // GET /v1/plans, /v1/public/* (index, transcripts, downloads)
  // The files a podcast feed links to (/v1/public/{slug}/transcript.*) and the public downloads: each may be
  // megabytes of a long transcript, rendered once per version (lib/publishing/public-files.ts) and then
  // served from memory; a reader who fetches them again and again is refused sooner than other reads.
  publicFile: { by: "address", points: 60, seconds: 60 },
  publicPage: { by: "address", points: 300, seconds: 60 }, // the pages of the same data: /explore, /t/{slug}, sitemaps (proxy.ts)
  languages: { by: "address", points: () => env().LANGUAGES_RATE_PER_MINUTE, seconds: 60 }, // asks the platform
  // Sign-in: each attempt (development login) and each magic-link mail, by address and by email.
  // (Roomy per address: without TRUSTED_PROXY_HOPS every anonymous client shares one address.)
  signInAddress: { by: "address", points: 60, seconds: 10 * 60 },
  signInEmail: { by: "email", points: 10, seconds: 10 * 60 },
  magicLinkAddress: { by: "address", points: 10, seconds: 60 * 60 },
  magicLinkEmail: { by: "email", points: 5, seconds: 60 * 60 },
  // The caller's own account.
  account: { by: "user", points: 1200, seconds: 60 }, // reads, history, job polling, key ensure, sign-out everywhere
  edit: { by: "user", points: 120, seconds: 60 }, // restore (DELETE /v1/transcripts/{id}/edits: expires pages)
  // PATCH /v1/transcripts/{id} (and MCP's edit_transcript): each reads, checks and retimes a body of up to
  // 4 MiB in a worker thread and stores a revision that is indexed for search.
  editSave: { by: "user", points: () => env().EDIT_SAVES_PER_MINUTE, seconds: 60 },
  // The same saves in a short window (lib/edits/revisions.ts): a person saves a correction every few seconds
  // at most, while a loop of saves meets a 429 within ten.
  editSaveBurst: { by: "user", points: 5, seconds: 15 },
  // The same saves by their cost: a save consumes as many points as the tokens search indexes of it (the
  // work of its insert, lib/edits/index-tokens.ts), so a few saves of the largest correction use up a minute
  // that many small ones would not.
  editSaveCost: { by: "user", points: () => env().EDIT_SAVE_TOKENS_PER_MINUTE, seconds: 60 },
  apiKeyRegenerate: { by: "user", points: 10, seconds: 60 * 60 },
  billing: { by: "user", points: 60, seconds: 60 * 60 }, // each one calls Stripe
  // Paid work, by tier.
  transcript: { by: "user", points: { free: 60, pro: 300, ultra: 1200 }, seconds: 60 }, // POST /v1/transcript
  job: { by: "user", points: { free: 20, pro: 120, ultra: 600 }, seconds: 60 * 60 }, // speech-recognition jobs
  uploadSign: { by: "user", points: { free: 30, pro: 200, ultra: 1000 }, seconds: 60 * 60 },
  // The MCP endpoint: every HTTP request (initialize, tools/list, tools/call); each tool call also counts
  // against its REST operation's row (get_transcript against `transcript`, …).
  mcp: { by: "user", points: 600, seconds: 60 },
  // Podcasts: each resolve fetches a feed (and may ask Apple's lookup API).
  podcastResolve: { by: "user", points: { free: 60, pro: 300, ultra: 1200 }, seconds: 60 * 60 },
  import: { by: "user", points: { free: 5, pro: 30, ultra: 120 }, seconds: 60 * 60 }, // POST /v1/import: a whole feed or playlist
  follow: { by: "user", points: 60, seconds: 60 * 60 }, // POST /v1/follows: fetches the feed or lists the channel
  alert: { by: "user", points: 120, seconds: 60 * 60 }, // POST /v1/alerts: parses the query in every configuration
  // POST /v1/exports: each may read and render a whole library (as a zip, streamed).
  export: { by: "user", points: 60, seconds: 60 * 60 },
  alertPreview: { by: "user", points: 60, seconds: 60 * 60 }, // POST /v1/alerts/{id}/preview: a search per recent transcript of its scope
  followCheck: { by: "user", points: () => env().FOLLOW_CHECKS_PER_HOUR, seconds: 60 * 60 }, // POST /v1/follows/{id}/check
  // A WebSub hub's calls to /v1/webhooks/websub/{token} (verification, pushes): credential-less, per address.
  websub: { by: "address", points: 600, seconds: 60 },
  // OAuth and device flow. Token, revocation and registration are credential-less (per address); a
  // device-code poll is also slowed per code by the flow itself (slow_down). Entering a user code is
  // limited per user and per address, so codes cannot be guessed (20^8 of them, 15 minutes each).
  oauthToken: { by: "address", points: 600, seconds: 60 }, // POST /oauth/token, /oauth/revoke, /v1/device/token
  oauthRegister: { by: "address", points: 30, seconds: 60 * 60 }, // POST /oauth/register
  deviceCode: { by: "address", points: 60, seconds: 10 * 60 }, // POST /v1/device/code
  deviceVerify: { by: "user", points: 20, seconds: 10 * 60 }, // POST /v1/device/approve and /deny
  deviceVerifyAddress: { by: "address", points: 60, seconds: 10 * 60 },
} satisfies Record<string, Limit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

export interface RateLimitsOptions {
  /** A Redis client shares the counts between processes; without one they are in-process. */
  redis?: Redis;
  /** Prefix of every Redis key (tests use one per run). */
  keyPrefix?: string;
  /** Multiplies every limit; 0 turns limiting off. */
  multiplier?: number;
}

/** The answer's RateLimit-* headers (IETF draft "RateLimit header fields for HTTP"). */
export type RateLimitHeaders = Record<string, string>;

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  constructor(private readonly options: RateLimitsOptions = {}) {}

  /** True when RATE_LIMIT_MULTIPLIER is 0: nothing is counted or looked up. */
  get off(): boolean {
    return this.options.multiplier === 0;
  }

  /**
   * Counts one request of `key` (`cost` points of it: 1 unless the row counts work) against the row `name`
   * (for per-tier rows, the tier's column) and returns the RateLimit-* headers; over the limit, throws a 429
   * ApiError that carries them and Retry-After.
   */
  async consume(name: RateLimitName, key: string, tier: Tier = "free", cost = 1): Promise<RateLimitHeaders> {
    const multiplier = this.options.multiplier ?? 1;
    if (this.off) return {};
    const limiter = this.limiter(name, tier, multiplier);
    try {
      // A cost past the whole row (a multiplier that shrinks it) uses the whole window, never refuses for good.
      return headersFor(limiter, await limiter.consume(key, Math.max(1, Math.min(cost, limiter.points))));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const headers = headersFor(limiter, rejection);
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw errors.rateLimited(seconds, headers);
    }
  }

  /** Gives back `points` that `consume` counted against `key` (a cost counted before it was known, at its most). */
  async refund(name: RateLimitName, key: string, tier: Tier = "free", points: number): Promise<void> {
    if (this.off || points <= 0) return;
    const limiter = this.limiter(name, tier, this.options.multiplier ?? 1);
    // consume counts a cost past the whole row as the whole row.
    await limiter.reward(key, Math.min(points, limiter.points));
  }

  private limiter(name: RateLimitName, tier: Tier, multiplier: number): RateLimiterAbstract {
    const id = `${name}:${tier}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const limit: Limit = RATE_LIMITS[name];
      const base =
        typeof limit.points === "number"
          ? limit.points
          : typeof limit.points === "function"
            ? limit.points()
            : limit.points[tier];
      const settings = {
        points: Math.max(1, Math.round(base * multiplier)),
        duration: limit.seconds,
        keyPrefix: `${this.options.keyPrefix ?? "verbatim:rl"}:${id}`,
      };
      limiter = this.options.redis
        ? // If Redis is unreachable, each process keeps counting on its own rather than failing requests.
          new RateLimiterRedis({
            ...settings,
            storeClient: this.options.redis,
            insuranceLimiter: new RateLimiterMemory(settings),
          })
        : new RateLimiterMemory(settings);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function headersFor(limiter: RateLimiterAbstract, result: RateLimiterRes): RateLimitHeaders {
  return {
    "RateLimit-Limit": String(limiter.points),
    "RateLimit-Remaining": String(result.remainingPoints),
    "RateLimit-Reset": String(Math.max(0, Math.ceil(result.msBeforeNext / 1000))),
    "RateLimit-Policy": `${limiter.points};w=${limiter.duration}`,
  };
}

const globalFor = globalThis as { verbatimRateLimits?: Promise<RateLimits> };

/**
 * The app's limits, from its settings (one per process; in Redis when REDIS_URL is set). ioredis is loaded
 * only then: the request guard counts public pages from the first request on, and a start without Redis
 * should not pay for loading it.
 */
export function rateLimits(): Promise<RateLimits> {
  globalFor.verbatimRateLimits ??= createRateLimits();
  return globalFor.verbatimRateLimits;
}

async function createRateLimits(): Promise<RateLimits> {
  const settings = env();
  let redis: Redis | undefined;
  if (settings.REDIS_URL) {
    const { Redis } = await import("ioredis");
    // No offline queue: while Redis is down a count fails at once and the in-process fallback answers.
    redis = new Redis(settings.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on("error", (error: Error) => log.warn({ err: error.message }, "rate limits: Redis error"));
  }
  return new RateLimits({ redis, multiplier: settings.RATE_LIMIT_MULTIPLIER });
}

/**
 * Applies the row `name` to a request: per user when `userId` is known and the row is per user, else per
 * client address (see client-address.ts). Per-tier rows use `tier` when the caller's lookup read it, else
 * look it up (cached for a minute).
 */
export async function limitRequest(
  name: RateLimitName,
  request: Request,
  userId?: string,
  tier?: Tier,
): Promise<RateLimitHeaders> {
  const limits = await rateLimits();
  if (limits.off) return {};
  if (RATE_LIMITS[name].by === "user" && userId) return limitUser(name, userId, tier);
  return limits.consume(name, `ip:${clientAddress(request.headers)}`);
}

/**
 * Applies a per-user row to `userId` (its tier's column for per-tier rows; `known`: the tier as just read),
 * `cost` points of it.
 */
export async function limitUser(
  name: RateLimitName,
  userId: string,
  known?: Tier,
  cost = 1,
): Promise<RateLimitHeaders> {
  const limits = await rateLimits();
  if (limits.off) return {};
  const limit: Limit = RATE_LIMITS[name];
  const tier = typeof limit.points === "object" ? (known ?? (await tierOf(userId))) : "free";
  return limits.consume(name, `user:${userId}`, tier, cost);
}

/** Gives back `points` of a per-user row's count (for rows whose points do not depend on the tier). */
export async function refundUser(name: RateLimitName, userId: string, points: number): Promise<void> {
  await (await rateLimits()).refund(name, `user:${userId}`, "free", points);
}

/** Counts one sign-in attempt or magic-link mail by the request's client address and by the email. */
export async function limitSignIn(
  kind: "signIn" | "magicLink",
  request: Request | undefined,
  email: string,
): Promise<void> {
  const limits = await rateLimits();
  await limits.consume(`${kind}Address`, `ip:${request ? clientAddress(request.headers) : "unknown"}`);
  const emailKey = createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
  await limits.consume(`${kind}Email`, `email:${emailKey}`);
}

/** Copies RateLimit-* headers onto an answer (answers whose headers are immutable keep theirs). */
export function withRateLimitHeaders(response: Response, headers: RateLimitHeaders | undefined): Response {
  if (!headers) return response;
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  } catch {
    // e.g. a proxied fetch Response: leave it as it is
  }
  return response;
}

// The tier of recent callers, so a per-tier limit costs no query on most requests. Bounded: the oldest
// entry goes when it is full. A plan change reaches the limits within TIER_TTL_MS.
const TIER_TTL_MS = 60_000;
const TIER_CACHE_MAX = 10_000;
const tiers = new Map<string, { tier: Tier; until: number }>();

async function tierOf(userId: string): Promise<Tier> {
  const now = Date.now();
  const cached = tiers.get(userId);
  if (cached && cached.until > now) return cached.tier;
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { tier: true } });
  const tier = row?.tier ?? "free";
  tiers.delete(userId);
  if (tiers.size >= TIER_CACHE_MAX) tiers.delete(tiers.keys().next().value!);
  tiers.set(userId, { tier, until: now + TIER_TTL_MS });
  return tier;
}
