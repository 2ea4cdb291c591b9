import { after, NextResponse, type NextRequest } from "next/server";
import { lastYtDlpStatus, ytdlpHealthFields, ytdlpProbeDue } from "@/lib/captions/ytdlp/last-status";
import { dbKind, embeddedOpening, embeddedServing, getDb, pingEmbedded } from "@/lib/db/client";
import { env } from "@/lib/env";
import { log } from "@/lib/observability/logger";
import { asrStatus } from "@/lib/transcripts/asr-status";
import { isOperatorRequest } from "@/lib/auth/operators";
import { capabilityHealthFields, serverCapabilities } from "@/lib/health/capabilities";
import { setupDetailFields, setupHealthFields, type SetupLine } from "@/lib/health/setup-checks";
import { lastSetupChecks, refreshSetupChecks, setupChecksDue } from "@/lib/health/setup-check-results";

const DATABASE_TIMEOUT_MS = 2000;

class TimedOut extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new TimedOut(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

/**
 * On the embedded database through pg's pool (lib/db/client.ts), so the first answer after a start does not
 * wait for Prisma's query compiler to load; its one connection may be another request's for seconds, and a
 * ping that has not had its turn within BUSY_AFTER_MS finds the database busy: up (its thread serves), but
 * every other request waits its turn too. On
 * PostgreSQL through Prisma, as before: there /health is the yardstick `npm run bench` divides the API's
 * figures by, and a cheaper ping would lower every ratio without any request getting slower
 * (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md).
 */
async function ping(kind: string): Promise<unknown> {
  return kind === "pglite" ? pingEmbedded(BUSY_AFTER_MS) : (await getDb()).$queryRaw`SELECT 1`;
}

const BUSY_AFTER_MS = 100;

async function checkDatabase(): Promise<{ state: "ok" | "busy" | "down"; kind: string }> {
  try {
    const kind = await withTimeout(dbKind(), DATABASE_TIMEOUT_MS);
    const answer = await withTimeout(ping(kind), DATABASE_TIMEOUT_MS);
    return { state: answer === "busy" ? "busy" : "ok", kind };
  } catch (error) {
    // A first start on a slow machine: the embedded database is still opening, not down. Or its thread serves but
    // the ping, once it had the connection, did not answer in time: the thread is busy, not down.
    if (embeddedOpening() || (error instanceof TimedOut && (await embeddedServing()))) {
      return { state: "busy", kind: "pglite" };
    }
    log.error({ err: error instanceof Error ? error.message : String(error) }, "health: database check failed");
    return { state: "down", kind: "unknown" };
  }
}

/** Which recogniser transcribes files and caption-less videos, with which model ("" when none). */
function speechRecognition(operator: boolean): Record<string, string> {
  try {
    const status = asrStatus();
    return {
      speech_recognition: status.provider,
      speech_model: status.model ?? "",
      ...(status.accelerator ? { speech_accelerator: status.accelerator } : {}),
      // Why it is off ("local speech recognition has no runtime for linux-riscv64 …", "ASR_PROVIDER=off").
      ...(operator && status.reason ? { speech_recognition_note: status.reason } : {}),
    };
  } catch (error) {
    log.error(
      { err: error instanceof Error ? error.message : String(error) },
      "health: speech recognition settings are invalid",
    );
    return { speech_recognition: "off", speech_model: "" };
  }
}

/**
 * yt-dlp's version, age, JavaScript runtime and YouTube challenge solver (lib/captions/ytdlp/status.ts):
 * the last probe's answer, never waited for ("checking" until the first one ends; the start runs one once the
 * first request is answered, instrumentation.ts).
 */
function ytdlp(): Record<string, string> {
  try {
    const binary = env().YTDLP_PATH;
    // A due probe (a Python start, spawned from this thread) begins once this answer has been sent.
    // The probe's module (yt-dlp's runner and the outbound stack) loads then too, not before a first answer.
    if (ytdlpProbeDue()) after(async () => (await import("@/lib/captions/ytdlp/status")).ytdlpStatus(binary));
    return ytdlpHealthFields(lastYtDlpStatus());
  } catch {
    return { ytdlp: "missing" };
  }
}

/**
 * The setup checks' last results (`npm run doctor` prints them whole), never waited for; a refresh, when they
 * are stale, begins once this answer has been sent ("checking" until the first ends).
 */
function setupChecks(): SetupLine[] | null {
  try {
    if (setupChecksDue()) after(() => refreshSetupChecks());
  } catch {
    // Outside a request (a script calling checkHealth): no background work to schedule.
  }
  return lastSetupChecks();
}

/** What works here, for everyone; never throws. */
function capabilities(lines: readonly SetupLine[] | null): Record<string, string> {
  try {
    const failing = lines ? lines.filter((line) => line.ok === false) : null;
    // Search by meaning, as its setup line found it: available, off (SEARCH_EMBEDDER=off), unavailable or checking.
    const meaning = lines?.find((line) => line.id === "search_meaning");
    return {
      ...capabilityHealthFields(serverCapabilities(failing, asrStatus().provider !== "off")),
      search_by_meaning: !meaning ? "checking" : meaning.ok === null ? "off" : meaning.ok ? "available" : "unavailable",
      // How the nearest are found: pgvector's HNSW index, or bounded candidates where the server has no pgvector.
      ...(meaning?.ok ? { search_by_meaning_index: meaning.way ?? "checking" } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Strings only, as the contract says; never throws. Everyone gets the status and the database's state (ok;
 * busy: the embedded database is still opening, or its one connection did not come within BUSY_AFTER_MS; down:
 * degraded), the recogniser and what works here (`youtube_links`, `platform_links`, `files`: available, unavailable or checking)
 * with the setup's summary (`setup`: ok, degraded or checking). An operator (`operator`) also gets which checks
 * fail and why, each check's finding and fix, and yt-dlp's details: hosts, ports and errors are theirs alone.
 */
export async function checkHealth({ operator = false }: { operator?: boolean } = {}): Promise<Record<string, string>> {
  const database = await checkDatabase();
  const yt = ytdlp();
  const lines = setupChecks();
  const { setup_failing: failing, ...summary } = setupHealthFields(lines);
  return {
    status: database.state === "down" ? "degraded" : database.state,
    database: database.state,
    database_kind: database.kind,
    ...speechRecognition(operator),
    ...capabilities(lines),
    ...summary,
    ...(operator
      ? { view: "operator", ...yt, ...(failing ? { setup_failing: failing } : {}), ...setupDetailFields(lines) }
      : {}),
    version: "0.1.0",
  };
}

/** Whether the request is an operator's browser; a database that does not answer makes nobody one. */
async function operatorAsking(request: NextRequest): Promise<boolean> {
  try {
    return await isOperatorRequest(request);
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, "health: operator check failed");
    return false;
  }
}

/** GET /health: an operator's browser gets the detail; the answer is never stored by a cache, as it varies by cookie. */
export async function healthResponse(request: NextRequest): Promise<Response> {
  const operator = await operatorAsking(request);
  return NextResponse.json(await checkHealth({ operator }), {
    headers: { "cache-control": "private, no-store", vary: "cookie" },
  });
}
