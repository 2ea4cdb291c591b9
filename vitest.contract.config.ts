import { defineConfig, mergeConfig } from "vitest/config";
import integration from "./vitest.integration.config.ts";

// The integration tests with every callRoute answer checked against /openapi.json (test/contract-setup.ts):
// `npx vitest run --config vitest.contract.config.ts lib/webhooks` checks what those files' requests get.
// lib/openapi/contract.int.test.ts, in the integration suite, is the contract test itself.
export default mergeConfig(integration, defineConfig({ test: { setupFiles: ["test/contract-setup.ts"] } }));
