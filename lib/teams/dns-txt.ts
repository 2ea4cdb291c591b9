import { Resolver } from "node:dns/promises";
import { env, type Env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";

// A domain's TXT records, asked of the DNS servers the operator set (DNS_SERVERS) or the system's. Only a name is
// sent, to the configured resolvers: no connection goes to an address the caller chose, so the outbound guard
// (lib/http/outbound) has nothing to check. The whole lookup has one deadline (DNS_TIMEOUT_MS), its tries share it.

type DnsSettings = Pick<Env, "DNS_SERVERS" | "DNS_TIMEOUT_MS" | "DNS_TRIES">;

/** Codes under which the name simply has no TXT record. */
const NO_RECORD = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "NODATA"]);

/** The TXT records of `name`, each one's strings joined; [] when it has none. */
export async function txtRecords(name: string, settings: DnsSettings = env()): Promise<string[]> {
  const tries = settings.DNS_TRIES;
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(settings.DNS_TIMEOUT_MS / tries)), tries });
  if (settings.DNS_SERVERS?.length) resolver.setServers(settings.DNS_SERVERS);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(Object.assign(new Error("deadline"), { code: "ETIMEOUT" }));
    }, settings.DNS_TIMEOUT_MS);
  });
  try {
    const records = await Promise.race([resolver.resolveTxt(name), deadline]);
    return records.map((chunks) => chunks.join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (NO_RECORD.has(code)) return [];
    if (code === "ETIMEOUT" || code === "ECANCELLED")
      throw new ApiError("upstream_timeout", `The DNS servers did not answer for ${name} in time. Try again.`);
    throw new ApiError("upstream_dns_failed", `The DNS servers could not look up ${name} (${code || "failed"}).`);
  } finally {
    clearTimeout(timer);
  }
}
