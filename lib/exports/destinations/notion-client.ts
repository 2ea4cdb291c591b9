import { createHash } from "node:crypto";
import { isOutboundError, type Outbound } from "@/lib/http/outbound";

// Notion's public API (https://developers.notion.com/reference), called with plain requests through the outbound
// guard: the official SDK is not among the project's packages, and the four calls used here (retrieve a database,
// create a page, append block children, move a page to the trash) are small. Version 2022-06-28: pages are made
// under a `database_id` parent. Notion allows an integration an average of three requests a second: requests with
// one token are spaced in this process, and a 429 is waited out for its Retry-After within the attempt's deadline,
// or else ends the attempt with the time it may be tried again.

export const NOTION_VERSION = "2022-06-28";
/** Between two requests with one token: a little over a third of a second. */
const SPACING_MS = 350;
/** A Retry-After longer than this ends the attempt instead of holding its slot. */
const LONGEST_WAIT_MS = 30_000;
const MAX_RATE_LIMITED = 5;

/** A failed call: Notion's answer (or none), what it said, and whether a later attempt can help. */
export class NotionError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = "NotionError";
  }
}

const nextSlot = new Map<string, number>();

async function spaced(token: string): Promise<void> {
  const key = createHash("sha256").update(token).digest("hex").slice(0, 16);
  const now = Date.now();
  const at = Math.max(now, nextSlot.get(key) ?? 0);
  nextSlot.set(key, at + SPACING_MS);
  if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
}

export interface NotionClient {
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** A client for one token, every call ending by `deadline` (epoch ms). */
export function notionClient(options: {
  outbound: Outbound;
  baseUrl: string;
  token: string;
  deadline: number;
}): NotionClient {
  const { outbound, baseUrl, token, deadline } = options;
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      for (let limited = 0; ; limited++) {
        await spaced(token);
        const left = deadline - Date.now();
        if (left <= 0) throw new NotionError("Notion did not answer within the attempt's deadline.", null, true);
        let res;
        try {
          res = await outbound.safeFetchBuffer(new URL(path, baseUrl), {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              "notion-version": NOTION_VERSION,
              "content-type": "application/json",
              accept: "application/json",
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            timeoutMs: left,
            connectTimeoutMs: Math.min(left, 10_000),
            idleTimeoutMs: Math.min(left, 30_000),
            followRedirects: false,
            retries: 0,
            maxBytes: 5 * 1024 * 1024,
          });
        } catch (error) {
          const refused =
            isOutboundError(error) && (error.code === "address_not_allowed" || error.code === "url_not_allowed");
          throw new NotionError(
            `Notion could not be reached: ${error instanceof Error ? error.message : String(error)}`,
            null,
            !refused,
          );
        }
        if (res.status >= 200 && res.status < 300) return JSON.parse(res.body.toString("utf8")) as T;
        const said = messageOf(res.body);
        if (res.status === 429 || res.status === 529) {
          const waitMs = retryAfterMs(res.headers.get("retry-after"));
          if (limited < MAX_RATE_LIMITED && waitMs <= LONGEST_WAIT_MS && Date.now() + waitMs < deadline) {
            await new Promise((resolve) => setTimeout(resolve, waitMs));
            continue;
          }
          throw new NotionError(
            `Notion is rate-limiting this integration (${res.status}): ${said}`,
            res.status,
            true,
            waitMs,
          );
        }
        // A 400 (validation) will not pass on a later try; 401/403/404 may, once the person shares the database
        // with the integration or replaces the token.
        throw new NotionError(`Notion answered ${res.status}: ${said}`, res.status, res.status !== 400);
      }
    },
  };
}

function messageOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { code?: string; message?: string };
    return [parsed.code, parsed.message].filter(Boolean).join(": ").slice(0, 300) || "no message";
  } catch {
    return "no message";
  }
}

/** Retry-After in seconds (Notion sends an integer); a missing or unreadable one is a second. */
function retryAfterMs(value: string | null): number {
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : 1000;
}
