import { env } from "@/lib/env";
import { createOutbound, type Outbound } from "./fetch";

let instance: Outbound | undefined;

/** The app's outbound instance, from settings: the proxy, and hosts exempt from the private-address rule (test fakes only). */
export function appOutbound(): Outbound {
  if (!instance) {
    const settings = env();
    const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
    instance = createOutbound({
      proxyUrl: settings.OUTBOUND_PROXY,
      ...(exempt.size > 0 ? { allowPrivateFor: (host: string) => exempt.has(host) } : {}),
    });
  }
  return instance;
}

/**
 * Closes the app instance's pooled connections and its forward proxy for yt-dlp, if started (shutdown).
 * Neither keeps the process alive on its own (idle sockets time out, the proxy's server is unref'd).
 */
export async function closeAppOutbound(): Promise<void> {
  const current = instance;
  instance = undefined;
  await current?.close();
}
