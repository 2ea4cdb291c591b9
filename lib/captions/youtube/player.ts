// InnerTube's `/player`, one youtubei.js session per exit (created on first use, forgotten when its creation
// fails), each request under the calling lookup's budget.
import { AsyncLocalStorage } from "node:async_hooks";

import { Innertube } from "youtubei.js";

import type { InnerTubeClient } from "./clients";
import type { Exit } from "./egress";
import { createOutboundFetch } from "./fetch";

/** Per-call scope seen by the fetch handed to youtubei.js: the budget's signal, and the last status. */
interface CallScope {
  signal: AbortSignal;
  lastStatus?: number;
}

export type CallPlayer = (
  signal: AbortSignal,
  videoId: string,
  client: InnerTubeClient,
  exit: Exit,
  pot: string | undefined,
) => Promise<unknown>;

export function createPlayerCaller(opts: { innertubeBaseUrl?: string; cookie?: string }): CallPlayer {
  const scope = new AsyncLocalStorage<CallScope>();
  const sessions = new Map<string, Promise<Innertube>>();

  function innertube(exit: Exit): Promise<Innertube> {
    let session = sessions.get(exit.label);
    if (!session) {
      const base = createOutboundFetch({ outbound: exit.outbound, baseUrl: opts.innertubeBaseUrl });
      const scoped: typeof fetch = async (input, init) => {
        const s = scope.getStore();
        const signal = s
          ? init?.signal
            ? AbortSignal.any([init.signal, s.signal])
            : s.signal
          : (init?.signal ?? undefined);
        const res = await base(input, { ...init, signal });
        if (s) s.lastStatus = res.status;
        return res;
      };
      session = Innertube.create({
        retrieve_player: false,
        generate_session_locally: true,
        lang: "en",
        location: "US",
        fetch: scoped,
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
      }).catch((err: unknown) => {
        sessions.delete(exit.label); // the next call tries again
        throw err;
      });
      sessions.set(exit.label, session);
    }
    return session;
  }

  /** One `/player` call as `client` through `exit`. */
  async function callPlayer(
    signal: AbortSignal,
    videoId: string,
    client: InnerTubeClient,
    exit: Exit,
    pot: string | undefined,
  ): Promise<unknown> {
    const s: CallScope = { signal };
    return scope.run(s, async () => {
      try {
        const yt = await innertube(exit);
        const res = await yt.actions.execute("/player", {
          videoId,
          client,
          racyCheckOk: true,
          contentCheckOk: true,
          playbackContext: { contentPlaybackContext: { vis: 0, splay: false, lactMilliseconds: "-1" } },
          ...(pot ? { serviceIntegrityDimensions: { poToken: pot } } : {}),
        });
        return res.data;
      } catch (err) {
        throw Object.assign(err instanceof Error ? err : new Error(String(err)), { httpStatus: s.lastStatus });
      }
    });
  }

  return callPlayer;
}
