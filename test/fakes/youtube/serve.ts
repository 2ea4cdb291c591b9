// The YouTube fake as a process of its own, for e2e runs and benchmarks: `tsx test/fakes/youtube/serve.ts 3125`.
import { startFakeYoutube } from "./server";

const port = Number(process.argv[2] ?? 3125);
const fake = await startFakeYoutube(port);
// The real recorded video (README: captioned.json) answers every client, so the API reference's example
// link (lib/openapi/examples.ts) works against the fake as it does against YouTube.
fake.scenarios.set("GJLlxj_dtq8", { "*": "recorded/captioned" });
console.log(`fake YouTube on ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
