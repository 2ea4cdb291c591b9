import { run } from "./program";

process.exitCode = await run(process.argv);
