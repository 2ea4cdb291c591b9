import type { Capability, SetupLine } from "@/lib/health/setup-checks";

// What a person can do on this server, from the setup checks' last results: the one answer everyone gets (the
// dashboard's rows, /health). Why something cannot be done (hosts, ports, errors) is for operators only
// (lib/auth/operators.ts); a line of the checks says itself what its failure takes away (`cuts`).

export type Availability = "available" | "unavailable" | "checking";

export type ServerCapabilities = Record<Capability, Availability>;

/**
 * `failing` are the failing lines of the last results (null while the first round runs); `speechRecognition`
 * whether a recogniser is configured at all (known without a check).
 */
export function serverCapabilities(
  failing: readonly SetupLine[] | null,
  speechRecognition: boolean,
): ServerCapabilities {
  const cut = new Set(failing?.flatMap((line) => (line.ok === false ? (line.cuts ?? []) : [])));
  const of = (capability: Capability): Availability =>
    failing === null ? "checking" : cut.has(capability) ? "unavailable" : "available";
  return { youtube: of("youtube"), links: of("links"), files: speechRecognition ? of("files") : "unavailable" };
}

/** /health's fields for everyone: what works here now, never why not. */
export function capabilityHealthFields(capabilities: ServerCapabilities): Record<string, string> {
  return {
    youtube_links: capabilities.youtube,
    platform_links: capabilities.links,
    files: capabilities.files,
  };
}

/** The failing lines that take `capability` away (an operator's "why"). */
export function linesCutting(failing: readonly SetupLine[] | null, capability: Capability): SetupLine[] {
  return (failing ?? []).filter((line) => line.ok === false && line.cuts?.includes(capability));
}
