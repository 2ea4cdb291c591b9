// The settings lib/env keeps as text because only their domain knows their words (which InnerTube clients exist,
// what a team role rule says): each read once at start, by its domain's own reader, so a typo stops the server
// (instrumentation.ts), the worker or the doctor with the variable's name, as lib/env's own checks do.
import { oidcAllowedDomains, oidcTeamRoleRules } from "@/lib/auth/oidc-settings";
import { youtubeClients } from "@/lib/captions/youtube/clients";
import { EnvError, type Env } from "@/lib/env";
import { watchSettings } from "@/lib/watch/settings";

/** Each throws "NAME: what is wrong" on a bad value. */
const DOMAIN_READERS: readonly ((settings: Env) => unknown)[] = [
  youtubeClients,
  oidcAllowedDomains,
  oidcTeamRoleRules,
  watchSettings,
];

/** Throws EnvError naming every setting its domain cannot read, as lib/env's parseEnv does for the rest. */
export function checkDomainSettings(settings: Env): void {
  const problems: string[] = [];
  for (const read of DOMAIN_READERS) {
    try {
      read(settings);
    } catch (err) {
      problems.push(`  ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new EnvError(`Invalid configuration:\n${problems.join("\n")}`);
}
