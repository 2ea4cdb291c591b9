import "server-only";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { BATCH_SETTINGS } from "@/lib/env/batches";
import { EXPORT_SETTINGS } from "@/lib/env/exports";
import { OIDC_SETTINGS } from "@/lib/env/oidc";
import { SEARCH_SETTINGS } from "@/lib/env/search";
import { WATCH_SETTINGS } from "@/lib/env/watch";

// Every setting Verbatim reads, parsed once. Nothing else in the app reads process.env.
// Each variable has one line in docs/configuration.md and .env.example; keep the three in step.
// A setting whose words only its domain knows (YOUTUBE_CLIENTS, OIDC_TEAM_ROLES, OIDC_ALLOWED_DOMAINS) is kept as
// text here and read by that domain; lib/app/check-settings.ts reads each once at start, so a bad value stops the
// server with the variable's name as the checks here do.

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
  .transform((v) => ["true", "1", "yes", "on"].includes(v));
const optionalUrl = z.url().optional();

const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** Unset: http://localhost:$PORT (see parseEnv), so a server started on another port links to itself. */
  APP_URL: z.url().optional(),
  /** The port `next start` / `next dev` listen on (Next.js reads it itself); here only for APP_URL's default. */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),

  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  AUTH_DEV_LOGIN: flag.optional(),
  /** Who runs this server (lib/auth/operators.ts): they see its setup's details. Unset: see operators.ts. */
  ADMIN_EMAILS: z
    .string()
    .transform((list, ctx) => {
      const emails = list
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean);
      for (const email of emails)
        if (!z.email().safeParse(email).success)
          ctx.addIssue({ code: "custom", message: `"${email}" is not an email` });
      return emails;
    })
    .optional(),
  AUTH_GITHUB_ID: z.string().min(1).optional(),
  AUTH_GITHUB_SECRET: z.string().min(1).optional(),
  AUTH_GOOGLE_ID: z.string().min(1).optional(),
  AUTH_GOOGLE_SECRET: z.string().min(1).optional(),
  ...OIDC_SETTINGS,
  /** Sign-in links by e-mail: on unless `off` (then only `npm run signin-link` makes one). */
  AUTH_EMAIL_SIGNIN: flag.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  EMAIL_FROM: z.string().min(3).default("Verbatim <no-reply@localhost>"),

  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  OUTBOUND_PROXY: optionalUrl,
  OUTBOUND_ALLOW_PRIVATE_HOSTS: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    )
    .optional(),

  TRANSCRIPT_CACHE_HOURS: z.coerce.number().positive().default(168),
  YOUTUBE_BASE_URL: optionalUrl,
  // YouTube's lookup chain (lib/captions/youtube): InnerTube clients, PO tokens, proxies, cookies, budget.
  /** Read by lib/captions/youtube/clients.ts (checked at start, lib/app/check-settings.ts). */
  YOUTUBE_CLIENTS: z.string().optional(),
  YOUTUBE_POT_PROVIDER_URL: optionalUrl,
  YOUTUBE_PROXIES: z
    .string()
    .transform((list, ctx) => {
      const urls = list
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      for (const u of urls) {
        if (!/^https?:\/\/[^\s/]+/i.test(u))
          ctx.addIssue({
            code: "custom",
            message: `"${u.replace(/\/\/[^@/]*@/, "//***@")}" is not an http:// or https:// proxy URL`,
          });
      }
      return urls;
    })
    .optional(),
  YOUTUBE_PROXY_COOLDOWN_SECONDS: z.coerce.number().int().nonnegative().default(300),
  YOUTUBE_BLOCK_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  YOUTUBE_COOKIES_FILE: z.string().min(1).optional(),
  YOUTUBE_LOOKUP_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(45),
  YTDLP_PATH: z.string().min(1).optional(),
  LANGUAGES_RATE_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Rate limits (lib/http/rate-limits.ts): who a client is, where counts are kept, and a scale for them all.
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().nonnegative().default(1),

  // Signed uploads (lib/uploads). Upload.sizeBytes is a 32-bit Int, hence the cap's ceiling.
  UPLOAD_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  UPLOAD_RETENTION_HOURS: z.coerce.number().positive().default(24),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(2147483647, "must be at most 2147483647 (2 GiB - 1)")
    .default(2147483647),
  UPLOAD_MAX_PENDING: z.coerce.number().int().positive().default(50),
  UPLOAD_MAX_PENDING_BYTES: z.coerce.number().int().positive().default(10737418240),
  ...WATCH_SETTINGS,
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_SESSION_TOKEN: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),

  ASSEMBLYAI_API_KEY: z.string().min(1).optional(),
  ASSEMBLYAI_BASE_URL: optionalUrl,
  ASR_OPENAI_BASE_URL: optionalUrl,
  ASR_OPENAI_API_KEY: z.string().min(1).optional(),
  ASR_OPENAI_MODEL: z.string().min(1).default("whisper-1"),
  ASR_WEBHOOK_BASE_URL: optionalUrl,
  // Which recogniser (lib/transcripts/asr-provider.ts); auto: AssemblyAI, else the OpenAI-compatible
  // server, else the local whisper.cpp where its runtime is installed, else off.
  ASR_PROVIDER: z.enum(["auto", "local", "assemblyai", "openai", "off"]).default("auto"),
  // The local recogniser (lib/asr/local.ts): model name (lib/asr/local-model.ts), an operator-placed
  // file instead, the host it is fetched from, and recognitions at once (default: one per 4 cores).
  ASR_LOCAL_MODEL: z.string().min(1).default("base-q5_1"),
  ASR_LOCAL_MODEL_PATH: z.string().min(1).optional(),
  ASR_LOCAL_MODEL_BASE_URL: z.url().default("https://huggingface.co/ggerganov/whisper.cpp/resolve/main"),
  ASR_LOCAL_CONCURRENCY: z.coerce.number().int().positive().max(64).optional(),
  // Its GPU build (lib/asr/local-runtime.ts): auto (an installed CUDA/Vulkan build where the GPU is, Metal
  // on Apple silicon), cuda, vulkan, or off (the CPU).
  ASR_LOCAL_GPU: z.enum(["auto", "cuda", "vulkan", "off"]).default("auto"),
  // Voice-activity detection before any recogniser (lib/asr/vad.ts): silero (only speech is recognised;
  // silence or music alone ends no_speech without a recogniser) or off (everything is sent, as before).
  ASR_VAD: z.enum(["silero", "off"]).default("silero"),
  JOB_CONCURRENCY: z.coerce.number().int().positive().max(100).default(2),
  // How long a claimed job stays a process's without a heartbeat: a crashed process's jobs resume elsewhere after it.
  JOB_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  ASR_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().positive().optional(),
  ASR_RETRY_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  MEDIA_MAX_DURATION_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 3600),
  MEDIA_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),

  // Podcasts (lib/podcasts): the Apple Podcasts lookup API, and the largest feed read.
  ITUNES_LOOKUP_URL: z.url().default("https://itunes.apple.com/lookup"),
  PODCAST_FEED_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  // Fetching a feed, body included, and parsing it in a worker thread (lib/podcasts/parse-off-thread.ts).
  PODCAST_FEED_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
  PODCAST_FEED_PARSE_THREADS: z.coerce.number().int().positive().max(16).default(2),
  PODCAST_FEED_PARSE_SECONDS: z.coerce.number().positive().max(300).default(20),
  PODCAST_FEED_PARSE_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(384),
  // Imports (lib/imports): items per batch, and transcriptions one user's imports run at once.
  IMPORT_MAX_ITEMS: z.coerce.number().int().positive().default(500),
  IMPORT_CONCURRENCY: z.coerce.number().int().positive().default(3),
  ...EXPORT_SETTINGS,
  ...BATCH_SETTINGS,
  // Follows (lib/follows): shows one user may follow, checks per hour (scheduled and "check now" together per
  // user for "check now"), the time between scheduled checks (jittered ±10%), the longest back-off after failures,
  // and the most items a new follow may ask to be transcribed at once (`backfill`).
  FOLLOW_MAX_PER_USER: z.coerce.number().int().positive().default(50),
  // Alerts (lib/alerts): saved searches per account (a person's or a team's) by its tier, matches a day per alert
  ALERT_MAX_FREE: z.coerce.number().int().positive().default(10),
  ALERT_MAX_PRO: z.coerce.number().int().positive().default(100),
  ALERT_MAX_ULTRA: z.coerce.number().int().positive().default(1000),
  ALERT_MAX_MATCHES_PER_DAY: z.coerce.number().int().positive().default(50),
  FOLLOW_CHECKS_PER_HOUR: z.coerce.number().int().positive().default(12),
  FOLLOW_CHECK_MINUTES: z.coerce.number().positive().default(60),
  FOLLOW_MAX_BACKOFF_HOURS: z.coerce.number().positive().default(24),
  FOLLOW_MAX_BACKFILL: z.coerce.number().int().min(0).max(500).default(20),
  // WebSub push for followed shows (lib/follows/push-subscribe.ts): YouTube channels' hub, the deadline of a
  // hub request, the poll interval kept while push is live, and whether a loopback or private APP_URL may be
  // given to a hub as the callback (local hubs and tests; a public hub cannot reach it).
  FOLLOW_PUSH_YOUTUBE_HUB: z.url().default("https://pubsubhubbub.appspot.com/"),
  FOLLOW_PUSH_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(10),
  FOLLOW_PUSH_POLL_HOURS: z.coerce.number().positive().default(24),
  FOLLOW_PUSH_PRIVATE_CALLBACK: flag.default(false),
  // Outbound webhooks (lib/webhooks): retry schedule, per-attempt timeout, caps, the delivery runner.
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().positive().max(30).default(12),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(72),
  WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().positive().default(10),
  WEBHOOK_MAX_PENDING: z.coerce.number().int().positive().default(1000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().max(200).default(16),
  WEBHOOK_ACCOUNT_CONCURRENCY: z.coerce.number().int().positive().max(200).default(4),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().positive().max(200).default(2),
  // Teams (lib/teams): teams one person may own, members per team (pending invitations count), pending
  // invitations per team, invitations a team may send per day, and the days an invitation link stays valid.
  TEAM_MAX_OWNED: z.coerce.number().int().positive().default(10),
  TEAM_MAX_MEMBERS: z.coerce.number().int().positive().default(100),
  TEAM_MAX_PENDING_INVITATIONS: z.coerce.number().int().positive().default(50),
  TEAM_INVITATIONS_PER_DAY: z.coerce.number().int().positive().default(100),
  /**
   * The DNS servers a team's domain is checked with (comma list of addresses, optionally with a port); unset:
   * the system's. DNS_TIMEOUT_MS and DNS_TRIES bound the whole check.
   */
  DNS_SERVERS: z
    .string()
    .transform((list) =>
      list
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .optional(),
  DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  DNS_TRIES: z.coerce.number().int().min(1).max(5).default(2),
  TEAM_MAX_DOMAINS: z.coerce.number().int().positive().max(1000).default(20),
  TEAM_INVITATION_DAYS: z.coerce.number().positive().max(90).default(7),
  ...SEARCH_SETTINGS,
  // Corrections (lib/edits): revisions kept per (user, transcript), each user's bytes of revisions, saves per
  // user and minute, and the worker threads that prepare saves (at once, and each one's deadline).
  EDIT_REVISIONS_KEPT: z.coerce.number().int().min(1).max(1000).default(20),
  EDIT_STORAGE_BYTES: z.coerce.number().int().positive().default(104_857_600), // 100 MiB
  EDIT_SAVES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // What one user's saves may cost in a minute, in the tokens search indexes (a correction holds at most
  // 100,000): three of the largest, or ten of a three-hour transcript.
  EDIT_SAVE_TOKENS_PER_MINUTE: z.coerce.number().int().min(100_000).default(300_000),
  EDIT_SAVE_THREADS: z.coerce.number().int().positive().max(16).default(2),
  EDIT_SAVE_SECONDS: z.coerce.number().positive().max(300).default(10),

  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  INNGEST_BASE_URL: optionalUrl,
  INNGEST_DEV: z.string().min(1).optional(),

  // Billing (lib/billing): Stripe is on when the secret key and both price settings are set.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, "must be a Stripe secret or restricted key (sk_… or rk_…)")
    .optional(),
  STRIPE_API_BASE: optionalUrl,
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_PRO: z.string().min(1).optional(),
  STRIPE_PRICE_ULTRA: z.string().min(1).optional(),
  // Monthly allowances (lib/usage/allowance.ts). Unset: the defaults below apply only when billing is on;
  // with billing off a tier has no limit unless the operator sets one.
  FREE_ALLOWANCE_SECONDS: z.coerce.number().int().positive().optional(),
  PRO_ALLOWANCE_SECONDS: z.coerce.number().int().positive().optional(),
  ULTRA_ALLOWANCE_SECONDS: z.coerce.number().int().positive().optional(),
  PLANS_CACHE_SECONDS: z.coerce.number().int().nonnegative().default(300),
  PLANS_STRIPE_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  PLANS_STATIC_PRO_AMOUNT: z.coerce.number().int().nonnegative().default(900),
  PLANS_STATIC_ULTRA_AMOUNT: z.coerce.number().int().nonnegative().default(2900),
  PLANS_STATIC_CURRENCY: z
    .string()
    .regex(/^[a-zA-Z]{3}$/, "must be a three-letter currency code")
    .transform((c) => c.toLowerCase())
    .default("usd"),
  PLANS_STATIC_INTERVAL: z.enum(["day", "week", "month", "year"]).default("month"),
});

/** Every setting name, for the docs check (lib/env.test.ts). */
export const SETTING_NAMES = Object.keys(schema.shape);

export type Env = Omit<z.infer<typeof schema>, "APP_URL"> & {
  /** The public base URL: APP_URL, else http://localhost:$PORT. */
  APP_URL: string;
  /** True when DATABASE_URL is unset: PGlite under DATA_DIR, migrations applied at start. */
  embedded: boolean;
  /** Development sign-in: on by default only embedded on a loopback APP_URL, else only with AUTH_DEV_LOGIN=true. */
  devLogin: boolean;
};

export class EnvError extends Error {}

export function parseEnv(vars: Record<string, string | undefined>): Env {
  // An empty value means "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(vars).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = { ...result.data, APP_URL: result.data.APP_URL ?? `http://localhost:${result.data.PORT}` };
  const embedded = env.DATABASE_URL === undefined;
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
    throw new EnvError("Invalid configuration:\n  OIDC_CLIENT_ID: required when OIDC_ISSUER is set");
  }
  if (env.WATCH_DIR && !env.WATCH_ACCOUNT) {
    throw new EnvError(
      "Invalid configuration:\n  WATCH_ACCOUNT: required when WATCH_DIR is set (a person's e-mail or a team's slug)",
    );
  }
  if (!embedded && !env.AUTH_SECRET) {
    throw new EnvError(
      "Invalid configuration:\n  AUTH_SECRET: required when DATABASE_URL is set (at least 32 characters)",
    );
  }
  return { ...env, embedded, devLogin: env.AUTH_DEV_LOGIN ?? (embedded && isLoopbackUrl(env.APP_URL)) };
}

/** True when the URL's host is this machine only: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === "loopback";
}

/** The start-up warning when a public deployment counts every anonymous client as one address. */
export function proxyHopsWarning(settings: Env): string | null {
  if (settings.TRUSTED_PROXY_HOPS > 0 || isLoopbackUrl(settings.APP_URL)) return null;
  return "[verbatim] TRUSTED_PROXY_HOPS is 0: X-Forwarded-For is not trusted and per-address rate limits count the connection's peer. Behind a proxy that peer is the proxy, so all clients would share one count: set TRUSTED_PROXY_HOPS to the number of proxies that append to X-Forwarded-For.";
}

/** The start-up warning when the development login is on where anyone who reaches the server could use it. */
export function devLoginWarning(settings: Env): string | null {
  if (!settings.devLogin || (settings.embedded && isLoopbackUrl(settings.APP_URL))) return null;
  return `[verbatim] WARNING: the development login is on (AUTH_DEV_LOGIN=true) at ${settings.APP_URL}: anyone who can reach this server can sign in as any user. Turn it off unless this is a private test machine.`;
}

/** Billing (Stripe) is on when the secret key and both tier prices are set (lib/billing/stripe.ts). */
export function stripeSettingsComplete(
  settings: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_PRICE_PRO" | "STRIPE_PRICE_ULTRA">,
): boolean {
  return Boolean(settings.STRIPE_SECRET_KEY && settings.STRIPE_PRICE_PRO && settings.STRIPE_PRICE_ULTRA);
}

let cached: Env | undefined;

/** The parsed settings. Throws EnvError, naming the variable, on a bad value. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

// The few variables external tools (ffmpeg, ffprobe, yt-dlp) get from our environment: never secrets.
const TOOL_ENV_NAMES = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "TZ",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "SYSTEMROOT",
];

/** A short environment for child processes: locale, paths and certificates only. */
export function toolEnvironment(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of TOOL_ENV_NAMES) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
