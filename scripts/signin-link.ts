// `npm run signin-link -- you@example.com`: prints a one-time sign-in link for that address (an account is made at
// first use), valid for a few minutes. The operator's way in when e-mail links are off (AUTH_EMAIL_SIGNIN=off) or
// the identity provider is unreachable. On the embedded database, stop the server first: it holds the data folder.
import "./supported-node.mjs";
import { makeSignInLink, OPERATOR_LINK_MINUTES } from "@/lib/auth/operator-link";
import { logToStderr } from "@/lib/observability/logger";

logToStderr("warn");
const email = process.argv[2];
if (!email || process.argv.length > 3) {
  console.error("usage: npm run signin-link -- you@example.com");
  process.exit(2);
}
try {
  const { url } = await makeSignInLink(email);
  console.log(`One-time sign-in link for ${email.trim().toLowerCase()} (${OPERATOR_LINK_MINUTES} minutes):\n${url}`);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
