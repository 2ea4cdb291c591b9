import { defineConfig, mergeConfig } from "vitest/config";
import integration from "./vitest.integration.config.ts";

// The integration tests with every callRoute answer checked against /openapi.json (test/contract-setup.ts):
// `npx vitest run --config vitest.contract.config.ts lib/webhooks` checks what those files' requests get.
// The contract test itself is test/server/contract.test.ts, against the built server (the server suite).
export default mergeConfig(integration, defineConfig({ test: { setupFiles: ["test/contract-setup.ts"] } }));
