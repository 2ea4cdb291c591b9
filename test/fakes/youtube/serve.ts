// The YouTube fake as a process of its own, for e2e runs and benchmarks: `tsx test/fakes/youtube/serve.ts 3125`.
import { startFakeYoutube } from "./server";

const port = Number(process.argv[2] ?? 3125);
const fake = await startFakeYoutube(port);
console.log(`fake YouTube on ${fake.url}`);
const stop = () => fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
