import { env } from "@/lib/env";

/** Hosts the operator lets links name though they resolve to private addresses (OUTBOUND_ALLOW_PRIVATE_HOSTS). */
export function allowPrivateFor(): ((host: string) => boolean) | undefined {
  const exempt = new Set(env().OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  return exempt.size > 0 ? (host: string) => exempt.has(host) : undefined;
}
