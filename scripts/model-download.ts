// `npm run model:download`: fetches the local recogniser's model (ASR_LOCAL_MODEL, default base-q5_1) into
// DATA_DIR/models ahead of time, from ASR_LOCAL_MODEL_BASE_URL, checked against its pinned SHA-256.
// Safe to run while the app runs (the same lock file); resumes a cut download.
// `npm run model:download -- search`: the local sentence model's files (SEARCH_LOCAL_MODEL) the same way.
import path from "node:path";
import { checkDomainSettings } from "@/lib/app/check-settings";
import { env } from "@/lib/env";
import { ensureModel, LOCAL_MODELS, MODEL_HINT, MODEL_HINT_FOR_DOWNLOAD } from "@/lib/asr/local-model";
import { localModelPlace } from "@/lib/embeddings/kinds/local";
import { SENTENCE_MODELS } from "@/lib/embeddings/sentence-catalog";
import { ensureLocalModel } from "@/lib/embeddings/sentence-files";
import { appOutbound, closeAppOutbound } from "@/lib/http/outbound/configured";

const settings = env();
checkDomainSettings(settings);
if (process.argv.includes("search")) {
  const place = localModelPlace(settings);
  if (!place) {
    const name = settings.SEARCH_LOCAL_MODEL;
    console.error(`SEARCH_LOCAL_MODEL "${name}" is not one of ${Object.keys(SENTENCE_MODELS).join(", ")}.`);
    process.exit(2);
  }
  const { info } = place;
  try {
    const files = await ensureLocalModel(place, appOutbound());
    console.log(`${files.modelFile}: ${info.model.bytes} bytes, SHA-256 ${info.model.sha256}`);
    console.log(`${files.tokenizerFile}: ${info.tokenizer.bytes} bytes, SHA-256 ${info.tokenizer.sha256}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await closeAppOutbound();
  }
  process.exit();
}
if (settings.ASR_LOCAL_MODEL_PATH) {
  console.log(
    `ASR_LOCAL_MODEL_PATH is set (${settings.ASR_LOCAL_MODEL_PATH}): that file is used, nothing to download.`,
  );
  process.exit(0);
}
const name = settings.ASR_LOCAL_MODEL;
const info = LOCAL_MODELS[name];
if (!info) {
  console.error(`ASR_LOCAL_MODEL "${name}" is not one of ${Object.keys(LOCAL_MODELS).join(", ")}.`);
  process.exit(2);
}
let shown = -1;
try {
  const file = await ensureModel({
    name,
    dir: path.resolve(settings.DATA_DIR, "models"),
    baseUrl: settings.ASR_LOCAL_MODEL_BASE_URL,
    outbound: appOutbound(),
    onProgress: (fraction) => {
      const percent = Math.floor(fraction * 100);
      if (percent !== shown && percent % 10 === 0) console.log(`downloading ${info.file}: ${percent} %`);
      shown = percent;
    },
  });
  console.log(`${file}: ${info.bytes} bytes, SHA-256 ${info.sha256}`);
} catch (error) {
  console.error((error as Error).message.replace(MODEL_HINT, MODEL_HINT_FOR_DOWNLOAD));
  process.exitCode = 1;
} finally {
  await closeAppOutbound();
}
