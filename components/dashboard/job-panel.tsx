"use client";

import { useEffect, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "@/lib/browser/api";
import {
  fetchJob,
  JOB_POLL_MS,
  jobFinished,
  jobKey,
  jobStageLabel,
  jobStatusLabel,
  SUBSCRIPTION_KEY,
  TRANSCRIPTIONS_KEY,
  type Job,
} from "@/lib/browser/transcripts";
import { formatBytes } from "@/lib/browser/uploads";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import { TranscriptViewer } from "@/components/transcript/dashboard/lazy-transcript-viewer";

const STATUS_CLASSES: Record<Job["status"], string> = {
  queued: "bg-stone-100 text-stone-700 ring-stone-200",
  running: "bg-amber-50 text-amber-800 ring-amber-200",
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  error: "bg-red-50 text-red-800 ring-red-200",
};

/** A 4xx other than a timeout or rate limit will not get better by asking again. */
function isFinalError(error: unknown): boolean {
  return (
    error instanceof ApiRequestError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * A speech recognition job, polled until it is done or has failed: its status, stage and progress,
 * then the finished transcript. The panel stays (as "Done") above the transcript.
 */
export function JobPanel({ jobId, file }: { jobId: string; file?: { name: string; size: number } | null }) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: jobKey(jobId),
    queryFn: () => fetchJob(jobId),
    refetchInterval: (query) =>
      jobFinished(query.state.data) || isFinalError(query.state.error) ? false : JOB_POLL_MS,
    retry: (failures, error) => !isFinalError(error) && failures < 2,
    // A finished job never changes; an unfinished one is polled anyway.
    staleTime: (query) => (jobFinished(query.state.data) ? Infinity : 0),
  });

  // A finished job changes the history (its row) and the usage line (the allowance was settled).
  const status = job.data?.status;
  useEffect(() => {
    if (status !== "done" && status !== "error") return;
    void queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
    void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
  }, [status, queryClient]);

  // A job that ran and is queued again is being retried by the server: said once, not as Running, then
  // "Waiting for a worker", then Running again.
  const [ran, setRan] = useState(false);
  if (!ran && status === "running") setRan(true);
  const retrying = ran && status === "queued";

  const data = job.data;
  const transcript = data?.status === "done" ? data.transcript : null;
  const percent = data ? (data.status === "done" ? 100 : data.progress * 100) : 0;
  const detail = !data
    ? "Loading the job…"
    : retrying
      ? "That attempt did not finish; trying again automatically…"
      : data.status === "queued"
        ? "Waiting to start…"
        : data.status === "running"
          ? `${jobStageLabel(data.stage) || "Working"}…`
          : data.status === "done"
            ? "Transcribed. The transcript is below and in your history."
            : null;

  return (
    <>
      <section
        className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
        aria-labelledby={`job-${jobId}-title`}
        data-testid="job-panel"
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id={`job-${jobId}-title`} className="font-medium">
              {file ? (
                <>
                  {data?.status === "done"
                    ? "Transcribed"
                    : data?.status === "error"
                      ? "Could not transcribe"
                      : "Transcribing"}{" "}
                  <span className="break-all">{file.name}</span>
                </>
              ) : (
                "Speech recognition"
              )}
            </h2>
            {file && <p className="text-xs text-stone-600">{formatBytes(file.size)}</p>}
          </div>
          <div aria-live="polite">
            {data && (
              <span
                className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${STATUS_CLASSES[data.status]}`}
                data-testid="job-status"
              >
                {data.status === "error" ? "Failed" : retrying ? "Retrying" : jobStatusLabel(data)}
              </span>
            )}
          </div>
        </div>

        {data?.status === "error" ? (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            data-testid="job-error"
          >
            {jobStatusLabel(data)}
          </p>
        ) : job.isError && !data ? (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            data-testid="job-error"
          >
            {job.error.message}
          </p>
        ) : (
          <div className="flex flex-col gap-1.5">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <p className="text-stone-700" data-testid="job-stage">
                {detail}
              </p>
              <p className="text-xs text-stone-600 tabular-nums">{Math.round(percent)}%</p>
            </div>
            <ProgressBar
              value={percent}
              label="Transcription progress"
              tone={data?.status === "done" ? "bg-emerald-600" : "bg-stone-900"}
              testId="job-progress"
            />
            {job.isError && data && (
              <p className="text-xs text-stone-600">
                Could not check on the job just now ({job.error.message}); trying again.
              </p>
            )}
          </div>
        )}
      </section>
      {transcript && <TranscriptViewer key={transcript.id} transcript={transcript} />}
    </>
  );
}
