// `npm run team-sso -- <team-slug> off` (or `on`): whether the team's members must sign in through the identity
// provider. The owner's way back in when the provider cannot let them in (it is down, or their account there is
// gone): turn it off here, sign in with `npm run signin-link -- owner@example.com`, fix the provider, turn it on
// again. Recorded in the team's audit trail as the server operator's. On the embedded database, stop the server first.
import "./supported-node.mjs";
import { setRequireSsoAsOperator } from "@/lib/teams/teams";
import { logToStderr } from "@/lib/observability/logger";

logToStderr("warn");
const [slug, state] = process.argv.slice(2);
if (!slug || (state !== "on" && state !== "off") || process.argv.length > 4) {
  console.error("usage: npm run team-sso -- <team-slug> on|off");
  process.exit(2);
}
try {
  const team = await setRequireSsoAsOperator(slug, state === "on");
  console.log(
    `${team.name ?? slug}: sign-in through the identity provider ${state === "on" ? "required" : "no longer required"}.`,
  );
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
