import { log } from "@/lib/observability/logger";
import { configuredSecondStage } from "@/lib/embeddings/registry";
import type { SecondStage } from "@/lib/embeddings/second-stage";
import { highestPid } from "@/lib/search/embed-passages";
import { upgradeMissingPassages, UPGRADE_BATCH } from "@/lib/search/second-stage";

const IDLE_MS = 30_000;
/**
 * The share of one core the upgrade takes at most: after each batch it waits as long again as the batch took
 * (the encoder's thread is one thread; a search's query goes ahead of the next batch).
 */
export const UPGRADE_DUTY = 0.5;

/**
 * One round of the background upgrade: the passages stored since `state.mark` first (a new transcript, a correction),
 * then one batch of the older ones the second stage has not read, going down from the newest. What is missing is
 * the upgrade's state, so a restart resumes it. How many it read.
 */
export async function upgradeRound(
  stage: SecondStage,
  state: { mark: bigint | null; below?: bigint; backfilled: boolean },
): Promise<number> {
  const now = await highestPid();
  let upgraded = 0;
  if (state.mark === null) state.mark = now;
  else if (now > state.mark) {
    const fresh = await upgradeMissingPassages(stage, UPGRADE_BATCH, { above: state.mark, below: now + 1n });
    upgraded += fresh.upgraded;
    // The rest of them in the next rounds.
    if (fresh.upgraded < UPGRADE_BATCH) state.mark = now;
    return upgraded;
  }
  if (!state.backfilled) {
    const older = await upgradeMissingPassages(stage, UPGRADE_BATCH, { below: state.below ?? state.mark + 1n });
    upgraded += older.upgraded;
    if (older.lowest === null) state.backfilled = true;
    else state.below = older.lowest;
  }
  return upgraded;
}

/**
 * Search by meaning's second stage (lib/search/second-stage.ts) reads every passage whole in the background, at
 * most UPGRADE_DUTY of a core, in its encoder's one thread (the event loop never runs the model); idle for a while
 * once there is nothing to read, its thread given back when nothing is asked of it. Off with SEARCH_SECOND_STAGE=off.
 */
export function scheduleSecondStage(): void {
  const globalState = globalThis as { verbatimSecondStage?: boolean };
  if (globalState.verbatimSecondStage) return;
  const stage = configuredSecondStage();
  if (!stage) return;
  globalState.verbatimSecondStage = true;
  const state: { mark: bigint | null; below?: bigint; backfilled: boolean } = { mark: null, backfilled: false };
  let done = 0;
  const loop = () => {
    const started = performance.now();
    void upgradeRound(stage, state)
      .then(
        (upgraded) => {
          done += upgraded;
          if (upgraded === 0 && state.backfilled && done > 0) {
            log.info({ passages: done }, "search by meaning: every passage is read whole by the second stage");
            done = 0;
          }
          const took = performance.now() - started;
          return upgraded > 0 ? (took * (1 - UPGRADE_DUTY)) / UPGRADE_DUTY : IDLE_MS;
        },
        (error: unknown) => {
          log.error({ err: error }, "search by meaning: the second stage's upgrade failed");
          return IDLE_MS * 4;
        },
      )
      .then((wait) => setTimeout(loop, wait).unref());
  };
  loop();
}
