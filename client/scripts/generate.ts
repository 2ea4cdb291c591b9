import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ERROR_CODES_ROOT, GENERATED_PATH, generateClientTypes, generateErrorCodes } from "./generate-types";

await writeFile(GENERATED_PATH, await generateClientTypes());
console.log(`wrote ${fileURLToPath(GENERATED_PATH)}`);
await rm(new URL("error-codes/", ERROR_CODES_ROOT), { recursive: true, force: true });
await mkdir(new URL("error-codes/", ERROR_CODES_ROOT));
for (const [path, text] of await generateErrorCodes()) {
  const file = new URL(path, ERROR_CODES_ROOT);
  await writeFile(file, text);
  console.log(`wrote ${fileURLToPath(file)}`);
}
