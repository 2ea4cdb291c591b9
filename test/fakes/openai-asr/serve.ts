// The OpenAI-compatible ASR fake as a process of its own, for e2e runs:
// `tsx test/fakes/openai-asr/serve.ts 3126 [delayMs]`. Every upload is "heard" as the same two
// sentences (words without punctuation, the text punctuated, as OpenAI answers), with a 2-second pause
// between them so the segmenter keeps them apart: the first segment is "Welcome to Verbatim.".
// The timings follow `espeak-ng -m "<speak>Welcome to Verbatim.<break time='2s'/>This audio was uploaded
// from the dashboard.</speak>"` (about 5.7 s). `delayMs` (default 0) holds each answer back, so a job is
// seen running.
import http from "node:http";
import { startFakeOpenAiAsr, type FakeAsrTranscript } from "./server";

export const FIXED_TRANSCRIPT: FakeAsrTranscript = {
  words: [
    { word: "Welcome", start: 0.05, end: 0.45 },
    { word: "to", start: 0.45, end: 0.6 },
    { word: "Verbatim", start: 0.6, end: 1.15 },
    { word: "This", start: 3.2, end: 3.4 },
    { word: "audio", start: 3.4, end: 3.8 },
    { word: "was", start: 3.8, end: 3.95 },
    { word: "uploaded", start: 3.95, end: 4.45 },
    { word: "from", start: 4.45, end: 4.6 },
    { word: "the", start: 4.6, end: 4.7 },
    { word: "dashboard", start: 4.7, end: 5.3 },
  ],
  text: "Welcome to Verbatim. This audio was uploaded from the dashboard.",
  language: "english",
  duration: 5.66,
};

const port = Number(process.argv[2] ?? 3126);
const delayMs = Number(process.argv[3] ?? 0);

const fake = await startFakeOpenAiAsr();
fake.respondWith(async () => {
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  return FIXED_TRANSCRIPT;
});

// The fake listens on a port of its own choosing; this forwards the given port to it.
const target = new URL(fake.origin);
const proxy = http.createServer((req, res) => {
  const upstream = http.request(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error: { message: `fake ASR unreachable: ${error.message}`, type: "server_error", param: null, code: null },
      }),
    );
  });
  req.pipe(upstream);
});
await new Promise<void>((resolve, reject) => {
  proxy.once("error", reject);
  proxy.listen(port, "127.0.0.1", resolve);
});
console.log(`fake OpenAI ASR on http://127.0.0.1:${port} (delay ${delayMs} ms)`);

const stop = () => {
  proxy.closeAllConnections();
  proxy.close();
  void fake.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
