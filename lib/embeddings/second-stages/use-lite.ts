// SEARCH_SECOND_STAGE=use-lite: Universal Sentence Encoder lite (npm installs it; ../use-lite.ts), each passage read
// whole in one thread kept for it (../use-lite-thread.ts).
import type { SecondStage, SecondStageAnswer, SecondStageKind } from "../second-stage";
import { USE_LITE, useLiteFolder as installedFolder } from "../use-lite";
import { encoderThread } from "../use-lite-thread";

/**
 * USE lite's closeness on whole passages: its floor and "close" where the judged set's paraphrases' best candidates
 * lie (0.3 and 0.5), and the closeness by both stages a question's best candidates need, chosen on the tuning
 * corpus (`npm run eval`, docs/decisions/0058): the highest that leaves no paraphrase with nothing beyond those the
 * words' rule already does (rerank.ts calibrateFloor).
 */
export const USE_LITE_SCALE: SecondStageAnswer = { floor: 0.3, close: 0.5, answer: 1.09 };

const wait = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref());

export function sentenceEncoderStage(folder: string): SecondStage {
  const thread = encoderThread(folder);
  return {
    model: `${USE_LITE.name}/whole-passage`,
    describe: `${USE_LITE.name} (second stage: passages read whole, in a background thread)`,
    ready: async () => true,
    embedPassages: (texts) => thread.embed(texts),
    embedQuery: async (text, waitMs) => {
      const asked = thread.embed([text], true).then(([v]) => v ?? null);
      asked.catch(() => {});
      return Promise.race([asked, wait(waitMs)]);
    },
    loaded: () => thread.started,
    release: () => thread.release(),
    scale: USE_LITE_SCALE,
  };
}

export const useLiteKind: SecondStageKind = {
  fromSettings: () => {
    const folder = installedFolder();
    return folder ? sentenceEncoderStage(folder) : null;
  },
};
