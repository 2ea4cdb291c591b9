// The worker thread's entry (off-thread.ts starts it): one job, done by the domain that knows its kind, and
// the answer posted back. Here the CPU work cannot hold up the event loop that serves requests.
import { parentPort, workerData } from "node:worker_threads";
import { prepareSave, type SaveJob } from "@/lib/edits/prepare-save";

const job = workerData as SaveJob;
parentPort!.postMessage(prepareSave(job));
