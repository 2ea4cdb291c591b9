// The closed list's codes of a job's own failures (its whole: ../error-codes.ts): GET /v1/jobs/{id} `error.code`,
// transcript.failed and import.completed events. The status is the one the same failure has as an answer;
// retryable says whether asking for it again may work.
import type { ErrorCodeInfo } from "./info";

export const JOB_CODES = {
  unsupported_media: {
    status: 422,
    retryable: false,
    meaning: "the file is not audio or video this server can read",
  },
  media_too_large: { status: 422, retryable: false, meaning: "the file is larger than this server transcribes" },
  media_too_long: { status: 422, retryable: false, meaning: "the audio is longer than this server transcribes" },
  no_speech: { status: 422, retryable: false, meaning: "no speech was recognised in the audio" },
  invalid_source: { status: 422, retryable: false, meaning: "the import's URL cannot be imported" },
  empty_source: {
    status: 422,
    retryable: false,
    meaning: "there is nothing to import there: no episodes with audio, or no videos",
  },
  upload_not_found: { status: 404, retryable: false, meaning: "the uploaded file is gone (expired or deleted)" },
  download_failed: { status: 502, retryable: true, meaning: "the audio could not be downloaded from its source" },
  asr_failed: {
    status: 502,
    retryable: true,
    meaning: "speech recognition failed or could not be reached (its server, a timeout, the audio tools)",
  },
  asr_rejected: {
    status: 502,
    retryable: false,
    meaning: "the speech-recognition provider refused the audio or this server's credentials",
  },
  asr_unavailable: {
    status: 503,
    retryable: false,
    meaning: "speech recognition cannot run on this server (a tool it needs is missing)",
  },
  probe_failed: { status: 500, retryable: false, meaning: "this server could not inspect the file (ffprobe failed)" },
  convert_failed: { status: 500, retryable: false, meaning: "this server could not convert the audio (ffmpeg failed)" },
  dispatch_failed: { status: 503, retryable: true, meaning: "the job could not be handed to the job runner (Inngest)" },
  unknown_pipeline: {
    status: 500,
    retryable: true,
    meaning: "the process that picked the job up does not know its kind (a deploy in progress)",
  },
  invalid_job: { status: 500, retryable: false, meaning: "the job's stored input is not valid" },
  invalid_job_context: {
    status: 500,
    retryable: false,
    meaning: "the job's stored context does not fit its pipeline (written by another version)",
  },
  invalid_step_output: { status: 500, retryable: false, meaning: "a step of the job returned something unstorable" },
  attempts_exhausted: {
    status: 500,
    retryable: true,
    meaning: "the job failed on every attempt without a reason (e.g. its process crashed)",
  },
  job_failed: {
    status: 500,
    retryable: true,
    meaning: "the job failed on this server for a reason it has no code for",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
