import { judgeSearchMeaning } from "@/lib/health/judge-search-meaning";
import { execFile } from "node:child_process";
import { lookup } from "node:dns/promises";
import { existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { LOCAL_MODELS } from "@/lib/asr/local-model";
import { lastYtDlpStatus, ytdlpStatus } from "@/lib/captions/ytdlp/status";
import { dbKind, getDb } from "@/lib/db/client";
import { dataDirHolder } from "@/lib/db/data-dir-lock";
import { env, stripeSettingsComplete } from "@/lib/env";
import { findExecutable } from "@/lib/process/media-tools";
import { asrStatus } from "@/lib/transcripts/asr-provider";
import { appOutbound } from "@/lib/http/outbound/configured";
import { probeYoutube } from "@/lib/health/probe-youtube";
import { probeMail, probeStripe } from "@/lib/health/probe-services";
import { youtubeProviderOptions } from "@/lib/transcripts/deps";
import { winkSourceFile } from "@/lib/embeddings/default-model";
import { embedderFromSettings, embedderKind } from "@/lib/embeddings/registry";
import { embeddingProgress } from "@/lib/search/embed-passages";
import { vectorSearchPath } from "@/lib/search/vector-index";
import {
  judgeDatabase,
  judgeMail,
  judgeRunningApp,
  judgeFfmpeg,
  judgeService,
  judgeSpeechModel,
  judgeStripe,
  judgeYoutube,
  judgeYtDlp,
  type ConnectResult,
  type RunningAppAnswer,
  type SetupLine,
} from "@/lib/health/setup-checks";

// The probes behind the setup checks (lib/health/setup-checks.ts judges them): one real InnerTube request for
// YouTube (probe-youtube.ts), one cheap Stripe read and an SMTP login when they are configured
// (probe-services.ts), a TCP connection to the outbound proxy and the model host, `ffmpeg -version`, the model
// file on disk, yt-dlp's last probe. The results are kept and
// refreshed in the background (setup-check-results.ts), so /health never waits on them; `npm run doctor` runs them once and waits.

const CONNECT_TIMEOUT_MS = 5000;

/** Resolves the name, then opens (and closes) a TCP connection: the OS's error code on failure. */
export async function connectOnce(host: string, port: number, timeoutMs = CONNECT_TIMEOUT_MS): Promise<ConnectResult> {
  let address: string;
  try {
    address = (await lookup(host)).address;
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? "EDNS" };
  }
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port });
    const done = (result: ConnectResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ ok: false, code: "ETIMEDOUT" }), timeoutMs);
    socket.once("connect", () => done({ ok: true }));
    socket.once("error", (error: NodeJS.ErrnoException) => done({ ok: false, code: error.code ?? "ECONNECT" }));
  });
}

function hostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port };
}

/** Asks the app listening on `port` on this machine for its /health. */
async function askRunningApp(port: number | undefined): Promise<RunningAppAnswer> {
  if (!port) return { asked: false };
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) });
    const body = (await answer.json()) as { status?: string; database?: string };
    return { asked: true, ok: true, status: String(body.status), database: String(body.database) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { asked: true, ok: false, error: cause ?? (error instanceof Error ? error.message : String(error)) };
  }
}

async function database(): Promise<SetupLine> {
  // The app holds the embedded database while it runs (lib/db/data-dir-lock.ts): a doctor run beside it asks
  // the app rather than open the folder, which the lock would refuse.
  const settings = env();
  const holder = settings.embedded ? await dataDirHolder(path.resolve(settings.DATA_DIR)) : null;
  if (holder && holder.pid !== process.pid) return judgeRunningApp(holder, await askRunningApp(holder.port));
  try {
    const kind = await dbKind();
    await (
      await getDb()
    ).$queryRaw`SELECT 1`;
    return judgeDatabase({ ok: true, kind });
  } catch (error) {
    return judgeDatabase({ ok: false, kind: "unknown", error: error instanceof Error ? error.message : String(error) });
  }
}

/** host:port of a URL, never its credentials (proxy URLs carry them). */
function label(url: string): string {
  const { host, port } = hostPort(url);
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** One real InnerTube request the way the caption lookup makes it (lib/health/probe-youtube.ts). */
async function youtube(): Promise<SetupLine> {
  const settings = env();
  const target = hostPort(settings.YOUTUBE_BASE_URL ?? "https://www.youtube.com");
  const proxy = settings.YOUTUBE_PROXIES?.[0] ?? settings.OUTBOUND_PROXY ?? null;
  const answer = await probeYoutube(youtubeProviderOptions(settings, appOutbound()));
  return judgeYoutube(target.host, proxy ? label(proxy) : null, answer);
}

function ffmpegVersion(): Promise<string | null> {
  const binary = findExecutable("ffmpeg");
  if (!binary) return Promise.resolve(null);
  return new Promise((resolve) =>
    execFile(binary, ["-version"], { timeout: CONNECT_TIMEOUT_MS }, (error, stdout) =>
      resolve(error ? null : (stdout.split("\n")[0]?.trim() ?? "ffmpeg")),
    ),
  );
}

async function speechModel(): Promise<SetupLine> {
  const settings = env();
  const status = asrStatus();
  if (status.provider !== "local") return judgeSpeechModel(status);
  const file = settings.ASR_LOCAL_MODEL_PATH;
  const info = LOCAL_MODELS[settings.ASR_LOCAL_MODEL];
  const target = file ?? (info ? path.resolve(settings.DATA_DIR, "models", info.file) : null);
  const present =
    target !== null && existsSync(target) && (file !== undefined || statSync(target).size === info?.bytes);
  if (present || file) return judgeSpeechModel({ ...status, present });
  const { host, port } = hostPort(settings.ASR_LOCAL_MODEL_BASE_URL);
  const proxy = settings.OUTBOUND_PROXY ? hostPort(settings.OUTBOUND_PROXY) : null;
  const reachable = await connectOnce(proxy?.host ?? host, proxy?.port ?? port);
  return judgeSpeechModel({ ...status, present: false, host, reachable });
}

async function outboundProxy(url: string | undefined): Promise<SetupLine> {
  if (!url) return judgeService("outbound_proxy", "OUTBOUND_PROXY", null, null);
  const { host, port } = hostPort(url);
  return judgeService("outbound_proxy", "OUTBOUND_PROXY", label(url), await connectOnce(host, port));
}

async function stripe(): Promise<SetupLine> {
  const settings = env();
  if (!stripeSettingsComplete(settings) || !settings.STRIPE_SECRET_KEY) return judgeStripe({ configured: false });
  const apiBase = settings.STRIPE_API_BASE ?? null;
  return judgeStripe({
    configured: true,
    apiBase,
    webhookSecret: Boolean(settings.STRIPE_WEBHOOK_SECRET),
    answer: await probeStripe(settings.STRIPE_SECRET_KEY, apiBase),
  });
}

async function mail(url: string | undefined): Promise<SetupLine> {
  if (!url) return judgeMail(null, null);
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === "smtps:" ? "465" : "587");
  return judgeMail(`${parsed.hostname}:${port}`, await probeMail(url));
}

/** Every check, now (the doctor; a background refresh). Never throws. */
async function searchMeaning(): Promise<SetupLine> {
  const settings = env();
  const embedder = embedderFromSettings(settings);
  const kind = settings.SEARCH_EMBEDDER;
  const problem = embedderKind(settings).problem(settings);
  const local =
    kind === "local"
      ? {
          host: new URL(settings.SEARCH_LOCAL_MODEL_BASE_URL).host,
          dir: path.join("DATA_DIR", "models", settings.SEARCH_LOCAL_MODEL),
        }
      : undefined;
  if (!embedder)
    return judgeSearchMeaning({
      embedder: kind,
      describe: null,
      ready: false,
      source: false,
      progress: null,
      problem,
      local,
      way: null,
    });
  const source = winkSourceFile();
  return judgeSearchMeaning({
    embedder: kind,
    describe: embedder.describe,
    ready: await embedder.ready(),
    source: source !== null && existsSync(source),
    progress: await embeddingProgress(embedder).catch(() => null),
    problem,
    local,
    way: await getDb()
      .then((db) => vectorSearchPath(db, embedder.model))
      .catch(() => null),
  });
}

export async function runSetupChecks(): Promise<SetupLine[]> {
  const settings = env();
  const ytdlp = async () => judgeYtDlp(lastYtDlpStatus() ?? (await ytdlpStatus(settings.YTDLP_PATH)));
  return Promise.all([
    database(),
    youtube(),
    ytdlp(),
    ffmpegVersion().then(judgeFfmpeg),
    speechModel(),
    searchMeaning(),
    outboundProxy(settings.OUTBOUND_PROXY),
    stripe(),
    mail(settings.SMTP_URL),
  ]);
}
