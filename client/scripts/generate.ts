import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GENERATED_PATH, generateClientTypes } from "./generate-types";

await writeFile(GENERATED_PATH, await generateClientTypes());
console.log(`wrote ${fileURLToPath(GENERATED_PATH)}`);
