// Runs after `npm run build` (postbuild): prepares the embedded database a fresh data folder starts from,
// initdb and every migration already run, so a first start restores it instead (lib/db/embedded.ts).
import { writeSnapshot } from "../lib/db/embedded";

const started = performance.now();
const file = await writeSnapshot();
console.log(`Embedded database snapshot: ${file} (${Math.round(performance.now() - started)} ms)`);
