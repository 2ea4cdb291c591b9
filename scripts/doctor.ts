// `npm run doctor`: the setup checks (lib/health/setup-checks.ts), each ✓ or ✗ with the sentence that fixes
// it; the same checks /health sums up. Exits 1 when one fails.
import { checkDomainSettings } from "@/lib/app/check-settings";
import { env } from "@/lib/env";
import { formatSetupLines } from "@/lib/health/setup-checks";
import { runSetupChecks } from "@/lib/health/run-setup-checks";
import { logToStderr } from "@/lib/observability/logger";

// The checks' results are this command's output; the app's log lines (the embedded database opening, at info)
// are not: only warnings and errors, on standard error.
logToStderr("warn");
const settings = env();
checkDomainSettings(settings);
console.log(
  `Verbatim at ${settings.APP_URL}, ${settings.embedded ? `embedded database under ${settings.DATA_DIR}` : "PostgreSQL"}`,
);
const lines = await runSetupChecks();
console.log(formatSetupLines(lines));
// The database client and sockets must not keep the process alive. The code is passed, not left in
// process.exitCode: under tsx a bare process.exit() ended with 0 even when a line failed.
process.exit(lines.some((line) => line.ok === false) ? 1 : 0);
