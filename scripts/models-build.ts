// Runs after `npm run build` (postbuild): what the default embedder needs, made once into the build
// (.next/verbatim-models): its word vectors converted and its most frequent SEARCH_DISTILLED_WORDS words distilled
// (about a minute on one core), so a fresh data folder's first start copies them (lib/embeddings/default-model.ts)
// and answers by meaning as soon as its first transcript's passages are embedded, not after they are made.
import path from "node:path";
import {
  builtModelsDir,
  DEFAULT_EMBEDDER,
  distilledModelFile,
  ensureDistilledFile,
  ensureModelFile,
} from "../lib/embeddings/default-model";

const started = performance.now();
const words = Number(process.env.SEARCH_DISTILLED_WORDS ?? DEFAULT_EMBEDDER.distilled.words);
const modelFile = path.join(builtModelsDir(), DEFAULT_EMBEDDER.file);
try {
  await ensureModelFile(modelFile);
  if (words > 0) await ensureDistilledFile(distilledModelFile(modelFile, words), modelFile, words);
  console.log(`Default embedder's files: ${builtModelsDir()} (${Math.round(performance.now() - started)} ms)`);
} catch (error) {
  // Not fatal: the app makes them on first need, as before.
  console.log(`Default embedder's files not made at build: ${error instanceof Error ? error.message : error}`);
}
