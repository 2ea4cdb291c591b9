// The worker thread's entry (off-thread.ts starts it): one job, done by the domain that knows its kind, and the
// answer posted back. Here the CPU work cannot hold up the event loop that serves requests.
import { parentPort, workerData } from "node:worker_threads";
import { answerCaptionJob, type CaptionJob } from "@/lib/captions/caption-job";
import { prepareSave, type SaveJob } from "@/lib/edits/prepare-save";
import { answerNamesJob, type NamesJob } from "@/lib/edits/lay-names";
import {
  answerConvertJob,
  answerDistilJob,
  answerEmbedJob,
  answerSentenceEmbedJob,
  type ConvertJob,
  type DistilJob,
  type EmbedJob,
  type SentenceEmbedJob,
} from "@/lib/embeddings/embed-job";
import { serveUseLite, type UseLiteServeJob } from "@/lib/embeddings/use-lite-serve";
import { readFeedJob } from "@/lib/podcasts/feed-worker";
import type { FeedJob } from "@/lib/podcasts/parse-off-thread";
import { renderFileJob, type FileRenderJob } from "@/lib/publishing/file-render";
import { answerListsJob, type ListsJob } from "@/lib/search/vector-lists-job";

const job = workerData as
  | FeedJob
  | CaptionJob
  | SaveJob
  | NamesJob
  | FileRenderJob
  | EmbedJob
  | SentenceEmbedJob
  | ConvertJob
  | DistilJob
  | ListsJob
  | UseLiteServeJob;
if (job.kind === "use-lite-serve") {
  // A thread that lives on: requests come as messages (use-lite-serve.ts).
  serveUseLite(parentPort!, job);
} else if (job.kind === "embed") {
  // The vectors are moved to the calling thread, not copied.
  const embedded = answerEmbedJob(job);
  parentPort!.postMessage(embedded, [embedded.vectors.buffer as ArrayBuffer, embedded.known.buffer as ArrayBuffer]);
} else if (job.kind === "embed-sentences") {
  void answerSentenceEmbedJob(job).then((answer) =>
    parentPort!.postMessage(
      answer,
      answer.ok ? [answer.vectors.buffer as ArrayBuffer, answer.known.buffer as ArrayBuffer] : [],
    ),
  );
} else if (job.kind === "embeddings-convert") {
  void answerConvertJob(job).then((answer) => parentPort!.postMessage(answer));
} else if (job.kind === "embeddings-distil") {
  void answerDistilJob(job).then((answer) => parentPort!.postMessage(answer));
} else if (job.kind === "vector-lists") {
  // The centroids and each vector's list are moved to the calling thread, not copied.
  const answer = answerListsJob(job);
  parentPort!.postMessage(answer, [answer.centroids.buffer as ArrayBuffer, answer.nearest.buffer as ArrayBuffer]);
} else if (job.kind === "public-file") {
  // A rendered file's bytes are moved to the calling thread, not copied.
  const rendered = renderFileJob(job);
  parentPort!.postMessage(rendered, [rendered.bytes.buffer]);
} else
  parentPort!.postMessage(
    job.kind === "captions"
      ? answerCaptionJob(job)
      : job.kind === "edit"
        ? prepareSave(job)
        : job.kind === "names"
          ? answerNamesJob(job)
          : readFeedJob(job),
  );
