// `prisma generate` without the native schema engine, which cannot be downloaded on these machines.
// The CLI only asks the engine for its version during generate; a stub that exits 1 satisfies it.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const stub = fileURLToPath(new URL("./no-schema-engine.sh", import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? stub,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};
const run = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], { stdio: "inherit", env });
process.exit(run.status ?? 1);
