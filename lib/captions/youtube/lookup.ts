// The state of one lookup: what the chain of clients has learnt so far, from getInfo into fetchTrack.
import type { ParsedSource } from "@/lib/sources";

import type { SourceError } from "../types";
import type { InnerTubeClient } from "./clients";
import type { Exit } from "./egress";
import type { PlayerDetails } from "./player-response";

export /** What one lookup has learnt so far; it continues from getInfo into fetchTrack. */
interface Lookup {
  source: ParsedSource;
  deadline: number;
  /** Index of the next client to ask. */
  next: number;
  retriesLeft: number;
  blocked: boolean;
  rateLimited: boolean;
  potMissing: boolean;
  potFailed: string | null;
  unplayable: string | null;
  /** A client answered OK (so the video itself is fine: no yt-dlp for "no captions"). */
  answered: boolean;
  /** A client listed caption tracks (perhaps none it could fetch). */
  sawTracks: boolean;
  timedOut: boolean;
  /** The network failure when YouTube could not be reached at all (refused, DNS, no route). */
  unreachable: { cause: string; detail: string } | null;
  /** The last caption-track answer that was neither a block nor empty (404, 5xx). */
  trackError: SourceError | null;
  lastDetails: PlayerDetails | null;
}

/** The client, exit and token whose answer listed usable tracks. */
export interface Served {
  client: InnerTubeClient;
  exit: Exit;
  details: PlayerDetails;
  pot: string | undefined;
}

/** A lookup of `source` that has asked no client yet, with `timeoutMs` to spend and `blockRetries` to retry. */
export function newLookup(source: ParsedSource, timeoutMs: number, blockRetries: number): Lookup {
  return {
    source,
    deadline: Date.now() + timeoutMs,
    next: 0,
    retriesLeft: blockRetries,
    blocked: false,
    rateLimited: false,
    potMissing: false,
    potFailed: null,
    unplayable: null,
    answered: false,
    sawTracks: false,
    timedOut: false,
    unreachable: null,
    trackError: null,
    lastDetails: null,
  };
}
