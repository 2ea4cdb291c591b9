import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ERROR_CODES_PATH, GENERATED_PATH, generateClientTypes, generateErrorCodes } from "./generate-types";

await writeFile(GENERATED_PATH, await generateClientTypes());
console.log(`wrote ${fileURLToPath(GENERATED_PATH)}`);
await writeFile(ERROR_CODES_PATH, await generateErrorCodes());
console.log(`wrote ${fileURLToPath(ERROR_CODES_PATH)}`);
