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
