/**
 * Proof-of-origin tokens from a bgutil-ytdlp-pot-provider sidecar (YOUTUBE_POT_PROVIDER_URL), the
 * HTTP API people already run for yt-dlp:
 *
 *   POST <base>/get_pot  {"content_binding": "<video id>"}  →  {"poToken", "contentBinding", "expiresAt"}
 *
 * One token per video id, bound to it, cached until its `expiresAt` (less a minute), and concurrent
 * requests for one video share one mint. The sidecar is the operator's own service (usually on
 * localhost or a private network), so it is called with the platform fetch, not the outbound guard.
 */
export interface PotProvider {
  /** The token for this video: from the cache, or minted. Throws PotError when the sidecar fails. */
  tokenFor(videoId: string, signal?: AbortSignal): Promise<string>;
  /** How many tokens were minted (asked of the sidecar) so far. */
  readonly minted: number;
}

export class PotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PotError";
  }
}

export interface PotProviderOptions {
  baseUrl: string;
  /** Per call. Default 15 s (a first mint starts BotGuard and can take seconds). */
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
}

/** A token is reused until this long before it expires. */
const EXPIRY_MARGIN_MS = 60_000;
/** When the sidecar gives no usable expiry: tokens live about six hours; reuse for one. */
const DEFAULT_TTL_MS = 3_600_000;
/** The cache holds at most this many videos (oldest dropped first). */
const MAX_ENTRIES = 5_000;

export function createPotProvider(opts: PotProviderOptions): PotProvider {
  const now = opts.now ?? Date.now;
  const doFetch = opts.fetch ?? fetch;
  const endpoint = `${opts.baseUrl.replace(/\/+$/, "")}/get_pot`;
  const cache = new Map<string, { token: string; until: number }>();
  const pending = new Map<string, Promise<string>>();
  let minted = 0;

  async function mint(videoId: string, signal?: AbortSignal): Promise<string> {
    minted++;
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
    let res: Response;
    try {
      res = await doFetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content_binding: videoId }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new PotError(`the PO token provider did not answer (${err instanceof Error ? err.message : String(err)})`);
    }
    const text = await res.text();
    if (!res.ok) throw new PotError(`the PO token provider answered ${res.status}: ${text.slice(0, 200)}`);
    let body: { poToken?: unknown; expiresAt?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new PotError("the PO token provider answered with something that is not JSON");
    }
    if (typeof body.poToken !== "string" || !/^[A-Za-z0-9_\-+/=]{16,4096}$/.test(body.poToken)) {
      throw new PotError("the PO token provider answered without a token");
    }
    const expires =
      typeof body.expiresAt === "string" || typeof body.expiresAt === "number"
        ? new Date(body.expiresAt).getTime()
        : NaN;
    const until = Number.isFinite(expires) ? expires - EXPIRY_MARGIN_MS : now() + DEFAULT_TTL_MS;
    if (until > now()) {
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(videoId, { token: body.poToken, until });
    }
    return body.poToken;
  }

  return {
    get minted() {
      return minted;
    },
    tokenFor(videoId, signal) {
      const hit = cache.get(videoId);
      if (hit && hit.until > now()) return Promise.resolve(hit.token);
      let p = pending.get(videoId);
      if (!p) {
        p = mint(videoId, signal).finally(() => pending.delete(videoId));
        pending.set(videoId, p);
      }
      return p;
    },
  };
}

/** The caption URL with the token appended as YouTube's web player does: pot, potc=1, c=<client name>. */
export function withPoToken(url: URL, token: string, clientName: string): URL {
  const out = new URL(url);
  out.searchParams.set("pot", token);
  out.searchParams.set("potc", "1");
  out.searchParams.set("c", clientName);
  return out;
}
