import type { NextRequest } from "next/server";
import { errors } from "@/lib/http/errors";

// A fixed-window counter per client address, in process memory: enough for one app process;
// several processes each apply the limit on their own.

interface Window {
  startedAt: number;
  count: number;
}

export interface RateLimiter {
  /** Throws a 429 ApiError (with Retry-After) when `key` is over the limit. */
  check(key: string, now?: number): void;
}

/** `limit` may be a function, read on each check, so settings are not parsed at import time. */
export function createRateLimiter(limit: number | (() => number), windowMs: number, maxKeys = 50_000): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    check(key, now = Date.now()) {
      let window = windows.get(key);
      if (!window || now - window.startedAt >= windowMs) {
        if (windows.size >= maxKeys) windows.clear();
        window = { startedAt: now, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > (typeof limit === "function" ? limit() : limit)) {
        throw errors.rateLimited(Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000)));
      }
    },
  };
}

/** The client address: the first X-Forwarded-For hop (Next.js's server sets it), else "unknown". */
export function clientAddress(request: NextRequest): string {
  const forwarded = request.headers.get("x-forwarded-for");
  return forwarded?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || "unknown";
}
