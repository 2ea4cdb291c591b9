/**
 * The one way out: every request to a user-supplied or platform URL goes through this module.
 *
 *   import { outbound, createOutbound, OutboundError } from "@/lib/http/outbound";
 *
 * `outbound` refuses everything internal and uses the system resolver with no proxy. lib/env.ts
 * builds the configured instance with `createOutbound({ proxyUrl, userAgent, defaults })`.
 */
import { createOutbound, type FetchOptions } from "./fetch";

export { OutboundError, isOutboundError, type OutboundErrorCode } from "./errors";
export { explainForUrl } from "./explain";
export {
  checkUrl,
  checkHost,
  checkResolvedAddresses,
  isPublicAddress,
  normalizeHost,
  effectivePort,
  type CheckUrlOptions,
} from "./guard";
export {
  createOutbound,
  parseRetryAfter,
  type BufferResponse,
  type FetchOptions,
  type Outbound,
  type OutboundResponse,
  type OutboundSettings,
  type Resolver,
  type StreamResponse,
} from "./fetch";

/** Default instance: no proxy, system DNS, nothing internal allowed. */
export const outbound = createOutbound();

export const safeFetchBuffer = (url: string | URL, opts?: FetchOptions) => outbound.safeFetchBuffer(url, opts);
export const safeFetchStream = (url: string | URL, opts?: FetchOptions) => outbound.safeFetchStream(url, opts);
