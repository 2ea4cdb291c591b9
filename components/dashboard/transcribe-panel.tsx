"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type DragEvent, type FormEvent } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  fetchSubscription,
  formatMinutes,
  requestTranscript,
  SUBSCRIPTION_KEY,
  transcriptKey,
  TRANSCRIPTIONS_KEY,
  type TranscribeResult,
  type Transcript,
} from "@/lib/client/transcripts";
import { ApiRequestError } from "@/lib/client/api";
import { formatBytes, isAudioOrVideo, putFile, signUpload, uploadContentType, type SignedUpload, type UploadProgress } from "@/lib/client/uploads";
import { describeTranscribeError } from "@/lib/client/transcribe-errors";
import { TranscriptViewer } from "@/components/dashboard/lazy-transcript-viewer";
import { JobPanel } from "@/components/dashboard/job-panel";
import { StoredTranscript } from "@/components/dashboard/stored-transcript";
import { parseMomentSeconds } from "@/lib/client/search";
import { dragHasFiles, FileDropZone } from "@/components/dashboard/file-drop-zone";
import { ProgressBar } from "@/components/dashboard/progress-bar";

const LANGUAGE_SUGGESTIONS: readonly [string, string][] = [
  ["en", "English"],
  ["es", "Spanish"],
  ["de", "German"],
  ["fr", "French"],
  ["pt", "Portuguese"],
  ["pt-BR", "Portuguese (Brazil)"],
  ["it", "Italian"],
  ["ja", "Japanese"],
  ["ko", "Korean"],
  ["zh-Hans", "Chinese (Simplified)"],
];

const inputClass =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm placeholder:text-stone-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-stone-600 dark:bg-stone-900 dark:placeholder:text-stone-400";

/** A link with captions to try on a first visit: TED's "Grit" talk, which has manual English captions. */
export const SAMPLE_LINK = "https://www.youtube.com/watch?v=H14bBuluwB8";

// The API's language rule (lib/transcripts/schemas.ts langSchema), checked here to say it in plain words.
const LANGUAGE_TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;
const LANGUAGE_HINT = "The language must be a code such as en, de or pt-BR.";

type Mode = "link" | "file";
type Submission = { kind: "link"; url: string; lang: string } | { kind: "file"; file: File; lang: string };
type UploadState = { phase: "signing" | "uploading" | "starting"; name: string } & UploadProgress;
interface FileInfo {
  name: string;
  size: number;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * The Transcribe page: a link or a file and a language in, the transcript out. A file is signed, PUT
 * (with a progress bar) and transcribed by speech recognition as a job, like links without captions.
 * The address holds the request: `?url=…&lang=…` submits at once (History links here), and
 * `?job=<id>` watches a job (so a reload resumes it instead of asking again), and `?transcript=<id>`
 * shows a transcript from the history (an import's finished items link there). `speechRecognition`
 * says whether this server can transcribe files and caption-less videos: the File tab says so before
 * anything is uploaded, and the empty page explains what works here.
 */
export function TranscribePanel({
  speechRecognition,
  recogniser = null,
  initialTranscript = null,
}: {
  speechRecognition: boolean;
  /** Which recogniser, in words ("whisper.cpp on this server, model base-q5_1"), for the first-run panel. */
  recogniser?: string | null;
  initialTranscript?: Transcript | null;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const queryClient = useQueryClient();
  const queryUrl = searchParams.get("url")?.trim() ?? "";
  const queryLang = searchParams.get("lang")?.trim() || "en";
  const queryJob = searchParams.get("job")?.trim() || null;
  const queryTranscript = searchParams.get("transcript")?.trim() || null;
  const queryMoment = parseMomentSeconds(searchParams.get("t"));
  const queryKey = `${queryUrl}\n${queryLang}`;

  const [mode, setMode] = useState<Mode>(queryJob && !queryUrl ? "file" : "link");
  const [url, setUrl] = useState(queryUrl);
  const [lang, setLang] = useState(queryLang);
  const [file, setFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadState | null>(null);
  // The file behind a job started here, to name it in the job panel.
  const [jobFile, setJobFile] = useState<{ jobId: string; file: FileInfo } | null>(null);
  const uploadAbort = useRef<AbortController | null>(null);
  const ids = { tabs: useId(), panel: useId() };

  // When the address changes while the page is open, the form follows it.
  const [seenQueryKey, setSeenQueryKey] = useState(queryKey);
  if (seenQueryKey !== queryKey) {
    setSeenQueryKey(queryKey);
    if (queryUrl) {
      setUrl(queryUrl);
      setLang(queryLang);
      setMode("link");
    }
  }

  const transcribe = useMutation({
    mutationFn: async (submission: Submission): Promise<TranscribeResult> => {
      if (submission.kind === "link") return requestTranscript({ url: submission.url, lang: submission.lang });
      const { file: chosen } = submission;
      const controller = new AbortController();
      uploadAbort.current = controller;
      const contentType = uploadContentType(chosen);
      setUpload({ phase: "signing", name: chosen.name, loaded: 0, total: chosen.size });
      let signed: SignedUpload;
      try {
        signed = await signUpload(chosen.name, contentType);
        setUpload({ phase: "uploading", name: chosen.name, loaded: 0, total: chosen.size });
        await putFile(signed.upload_url, chosen, contentType, {
          signal: controller.signal,
          onProgress: (progress) => setUpload((state) => (state ? { ...state, ...progress } : state)),
        });
      } catch (error) {
        // Refusals (415 not audio or video, 413 too large, …) say so before the API's reason.
        if (error instanceof ApiRequestError && error.status >= 400) {
          throw new ApiRequestError(error.status, `This file cannot be uploaded: ${error.message}`, error.code);
        }
        throw error;
      }
      uploadAbort.current = null;
      setUpload({ phase: "starting", name: chosen.name, loaded: chosen.size, total: chosen.size });
      return requestTranscript({ upload: signed.object_path, lang: submission.lang });
    },
    onSuccess: (result, submission) => {
      if (result.kind === "transcript") queryClient.setQueryData(transcriptKey(result.transcript.id, "json"), result.transcript);
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
      void queryClient.invalidateQueries({ queryKey: TRANSCRIPTIONS_KEY });
      if (result.kind !== "queued") return;
      // The job goes into the address, so a reload (or a shared link) keeps watching it.
      const search = new URLSearchParams(submission.kind === "link" ? { url: submission.url, lang: submission.lang } : {});
      search.set("job", result.jobId);
      router.replace(`${pathname}?${search.toString()}`, { scroll: false });
      if (submission.kind === "file") {
        setJobFile({ jobId: result.jobId, file: { name: submission.file.name, size: submission.file.size } });
        setFile(null);
      }
    },
    onSettled: () => {
      uploadAbort.current = null;
      setUpload(null);
    },
  });
  const { mutate } = transcribe;

  // The last request sent, so the address written back after a submit does not send it again.
  const lastSent = useRef<string | null>(null);
  useEffect(() => {
    if (!queryUrl || lastSent.current === queryKey) return;
    lastSent.current = queryKey;
    // A job in the address is watched, not asked for again; a language the API would refuse is said here.
    if (queryJob || !LANGUAGE_TAG.test(queryLang)) return;
    mutate({ kind: "link", url: queryUrl, lang: queryLang });
  }, [queryKey, queryUrl, queryLang, queryJob, mutate]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const language = lang.trim() || "en";
    setFormError(null);
    if (!LANGUAGE_TAG.test(language)) {
      setFormError(LANGUAGE_HINT);
      return;
    }
    if (mode === "file") {
      if (!speechRecognition) return;
      if (!file) {
        setFormError("Choose an audio or video file first.");
        return;
      }
      lastSent.current = null;
      mutate({ kind: "file", file, lang: language });
      router.replace(pathname, { scroll: false });
      return;
    }
    const input = { url: url.trim(), lang: language };
    if (!input.url) return;
    lastSent.current = `${input.url}\n${input.lang}`;
    mutate({ kind: "link", ...input });
    router.replace(`${pathname}?${new URLSearchParams(input).toString()}`, { scroll: false });
  }

  /** Something new was chosen or typed: the last attempt's error no longer applies. */
  function clearErrors() {
    setFormError(null);
    if (transcribe.isError) transcribe.reset();
  }

  function chooseFile(chosen: File | null) {
    clearErrors();
    if (chosen) setMode("file");
    if (chosen && !speechRecognition) return;
    if (chosen && !isAudioOrVideo(chosen)) {
      setFile(null);
      setFormError(`“${chosen.name}” is not an audio or video file. Choose a recording such as MP3, M4A, WAV, MP4 or MOV.`);
      return;
    }
    setFile(chosen);
  }

  function trySample() {
    clearErrors();
    setMode("link");
    setUrl(SAMPLE_LINK);
    const input = { url: SAMPLE_LINK, lang: "en" };
    setLang("en");
    lastSent.current = `${input.url}\n${input.lang}`;
    mutate({ kind: "link", ...input });
    router.replace(`${pathname}?${new URLSearchParams(input).toString()}`, { scroll: false });
  }

  // A file dragged anywhere over the form switches to the file tab; dropped outside the drop zone, the
  // form takes it too (rather than the browser opening the file in place of the page).
  function onFormDragOver(event: DragEvent<HTMLFormElement>) {
    if (transcribe.isPending || !dragHasFiles(event)) return;
    event.preventDefault();
    if (mode !== "file") setMode("file");
  }
  function onFormDrop(event: DragEvent<HTMLFormElement>) {
    if (event.defaultPrevented || transcribe.isPending || !dragHasFiles(event)) return;
    event.preventDefault();
    const dropped = event.dataTransfer.files[0];
    if (dropped) chooseFile(dropped);
  }

  const result = transcribe.data;
  const pending = transcribe.isPending;
  // The job to watch: the one just started, else the address's (unless something else is showing).
  const watchedJob = pending || transcribe.isError ? null : result ? (result.kind === "queued" ? result.jobId : null) : queryJob;
  const tabClass =
    "rounded px-3 py-1.5 text-sm text-stone-600 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 aria-selected:bg-stone-900 aria-selected:text-white aria-selected:hover:bg-stone-900 dark:text-stone-300 dark:hover:bg-stone-800 dark:aria-selected:bg-stone-100 dark:aria-selected:text-stone-900";
  const shownError = transcribe.isError && !isAbort(transcribe.error) ? describeTranscribeError(transcribe.error, transcribe.variables?.kind === "link" ? transcribe.variables.url : null) : null;
  const showingSomething = pending || transcribe.isError || !!result || !!watchedJob || !!queryTranscript || !!formError || !!queryUrl;
  const fileBlocked = mode === "file" && !speechRecognition;
  const addressError = queryUrl && !queryJob && !LANGUAGE_TAG.test(queryLang) && !pending && !result && !transcribe.isError ? LANGUAGE_HINT : null;
  const formMessage = formError ?? addressError;

  return (
    <div className="flex flex-col gap-6">
      <form
        onSubmit={onSubmit}
        onDragEnter={onFormDragOver}
        onDragOver={onFormDragOver}
        onDrop={onFormDrop}
        className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-700 dark:bg-stone-900"
        aria-label="Transcribe a link or a file"
      >
        <div role="tablist" aria-label="What to transcribe" className="inline-flex self-start rounded-md border border-stone-200 bg-white p-0.5 dark:border-stone-700 dark:bg-stone-900">
          {(["link", "file"] as const).map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              id={`${ids.tabs}-${tab}`}
              aria-selected={mode === tab}
              aria-controls={ids.panel}
              tabIndex={mode === tab ? 0 : -1}
              disabled={pending}
              onClick={() => {
                setMode(tab);
                clearErrors();
              }}
              onKeyDown={(event) => {
                if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
                event.preventDefault();
                const next = tab === "link" ? "file" : "link";
                setMode(next);
                document.getElementById(`${ids.tabs}-${next}`)?.focus();
              }}
              className={tabClass}
              data-testid={`source-tab-${tab}`}
            >
              {tab === "link" ? "Link" : "File"}
            </button>
          ))}
        </div>
        <div
          role="tabpanel"
          id={ids.panel}
          aria-labelledby={`${ids.tabs}-${mode}`}
          className={`flex flex-col gap-3 sm:flex-row ${mode === "file" ? "sm:items-stretch" : "sm:items-end"}`}
        >
          {mode === "link" ? (
            <label className="flex flex-1 flex-col gap-1 text-sm">
              <span className="font-medium">Video or audio link</span>
              <input
                name="url"
                type="text"
                inputMode="url"
                required
                autoComplete="off"
                spellCheck={false}
                placeholder="https://www.youtube.com/watch?v=…"
                value={url}
                onChange={(event) => {
                  setUrl(event.target.value);
                  clearErrors();
                }}
                className={inputClass}
                data-testid="transcribe-url"
              />
            </label>
          ) : (
            <div className="flex flex-1 flex-col gap-1 text-sm">
              <span className="font-medium" aria-hidden="true">
                Audio or video file
              </span>
              {speechRecognition ? (
                <FileDropZone file={file} onFile={chooseFile} disabled={pending} />
              ) : (
                <RecognitionOff />
              )}
            </div>
          )}
          <div className={`flex flex-col gap-3 sm:flex-row sm:items-end ${mode === "file" ? "sm:self-end" : ""}`}>
            <label className="flex flex-col gap-1 text-sm sm:w-36">
              <span className="font-medium">Language</span>
              <input
                name="lang"
                type="text"
                list="transcribe-languages"
                autoComplete="off"
                spellCheck={false}
                value={lang}
                onChange={(event) => setLang(event.target.value)}
                className={inputClass}
                data-testid="transcribe-lang"
              />
              <datalist id="transcribe-languages">
                {LANGUAGE_SUGGESTIONS.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </datalist>
            </label>
            <button
              type="submit"
              disabled={pending || fileBlocked}
              aria-busy={pending}
              className="inline-flex items-center justify-center gap-2 rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white hover:bg-stone-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:bg-stone-100 dark:text-stone-900 dark:hover:bg-stone-300 dark:focus-visible:ring-offset-stone-900"
              data-testid="transcribe-submit"
            >
              {pending && <Spinner />}
              {pending ? (upload && upload.phase !== "starting" ? "Uploading…" : "Transcribing…") : "Transcribe"}
            </button>
          </div>
        </div>
        <p className="text-xs text-stone-600 dark:text-stone-400">
          {mode === "link"
            ? `YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo links${speechRecognition ? "" : " that have captions"}. Asking again for a transcript already in your history is free.`
            : speechRecognition
              ? "MP3, M4A, WAV, Ogg, FLAC, AAC, MP4, MOV, WebM or MKV. Uploaded files are transcribed by speech recognition in the background; you can leave this page and find the result in History."
              : "Links with captions still work: use the Link tab."}
        </p>
        <UsageLine />
      </form>

      {formMessage && (
        <div role="alert" className={errorClass} data-testid="transcribe-error">
          {formMessage}
        </div>
      )}
      {shownError && !formMessage && (
        <div role="alert" className={`${errorClass} flex flex-wrap items-center justify-between gap-x-4 gap-y-2`} data-testid="transcribe-error">
          <div className="min-w-0">
            <p data-testid="transcribe-error-message">{shownError.message}</p>
            {shownError.detail && <p className="mt-1 text-xs text-red-700 dark:text-red-300">Details: {shownError.detail}</p>}
          </div>
          {shownError.retry && transcribe.variables && (
            <button
              type="button"
              onClick={() => transcribe.variables && mutate(transcribe.variables)}
              className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-red-700 dark:bg-red-950 dark:text-red-200 dark:hover:bg-red-900"
              data-testid="transcribe-retry"
            >
              Try again
            </button>
          )}
        </div>
      )}
      {transcribe.isError && isAbort(transcribe.error) && (
        <p role="status" className="text-sm text-stone-600 dark:text-stone-400" data-testid="upload-cancelled">
          Upload cancelled.
        </p>
      )}
      {pending && upload && <UploadPanel upload={upload} onCancel={upload.phase === "starting" ? null : () => uploadAbort.current?.abort()} />}
      {watchedJob && <JobPanel key={watchedJob} jobId={watchedJob} file={jobFile?.jobId === watchedJob ? jobFile.file : null} />}
      {result?.kind === "transcript" && !pending && <TranscriptViewer key={result.transcript.id} transcript={result.transcript} />}
      {queryTranscript && !watchedJob && !result && !pending && !transcribe.isError && <StoredTranscript key={`${queryTranscript}@${queryMoment ?? ""}`} id={queryTranscript} initial={initialTranscript} startAt={queryMoment} />}
      {!showingSomething && <FirstRun speechRecognition={speechRecognition} recogniser={recogniser} onTrySample={trySample} />}
    </div>
  );
}

const errorClass = "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200";

/** The File tab on a server without speech recognition: said before anything is chosen or uploaded. */
function RecognitionOff() {
  return (
    <div className="flex min-h-24 flex-col justify-center gap-1 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100" data-testid="asr-off">
      <p className="font-medium">Transcribing files is not available on this server.</p>
      <p>It needs speech recognition, which has not been set up here. Links to videos that have captions work: use the Link tab.</p>
    </div>
  );
}

/** The empty page: what this server can do now, and a link to try. */
function FirstRun({ speechRecognition, recogniser, onTrySample }: { speechRecognition: boolean; recogniser: string | null; onTrySample: () => void }) {
  const row = (ok: boolean, what: string, how: string, testId: string) => (
    <li className="flex gap-3" data-testid={testId} data-available={ok}>
      <span
        aria-hidden="true"
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${ok ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100" : "bg-stone-200 text-stone-700 dark:bg-stone-700 dark:text-stone-200"}`}
      >
        {ok ? "✓" : "–"}
      </span>
      <span>
        <span className="font-medium">{what}</span> <span className="sr-only">{ok ? "(available)" : "(not available)"}</span>
        <span className="block text-stone-600 dark:text-stone-400">{how}</span>
      </span>
    </li>
  );
  return (
    <section className="flex flex-col gap-4 rounded-lg border border-dashed border-stone-300 p-4 text-sm dark:border-stone-700" aria-labelledby="first-run-title" data-testid="first-run">
      <h2 id="first-run-title" className="font-semibold">
        What works on this server
      </h2>
      <ul className="flex flex-col gap-3">
        {row(true, "Links with captions", "YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo videos that have captions: the transcript comes back at once.", "can-captions")}
        {row(
          speechRecognition,
          "Files, podcasts and videos without captions",
          speechRecognition
            ? `Transcribed by speech recognition${recogniser ? ` (${recogniser})` : ""} in the background; follow the progress here or in History.`
            : "Not on this server: they need speech recognition, which has not been set up here.",
          "can-asr",
        )}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onTrySample}
          className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-stone-600 dark:bg-stone-900 dark:hover:bg-stone-800"
          data-testid="try-sample"
        >
          Try a sample link
        </button>
        <span className="min-w-0 break-all text-xs text-stone-600 dark:text-stone-400">{SAMPLE_LINK}</span>
      </div>
    </section>
  );
}

function UploadPanel({ upload, onCancel }: { upload: UploadState; onCancel: (() => void) | null }) {
  const percent = upload.total > 0 ? (upload.loaded / upload.total) * 100 : 0;
  const heading =
    upload.phase === "signing" ? "Preparing the upload…"
    : upload.phase === "uploading" ? "Uploading"
    : "Uploaded. Starting the transcription…";
  return (
    <section className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4 dark:border-stone-700 dark:bg-stone-900" aria-label="Upload" data-testid="upload-panel">
      <div className="flex flex-wrap items-baseline justify-between gap-3 text-sm">
        <p className="min-w-0 text-stone-700 dark:text-stone-300">
          <span className="font-medium">{heading}</span> <span className="break-all text-stone-600 dark:text-stone-400">{upload.name}</span>
        </p>
        <p className="text-xs text-stone-600 tabular-nums dark:text-stone-400" data-testid="upload-bytes">
          {formatBytes(upload.loaded)} of {formatBytes(upload.total)} · {Math.round(percent)}%
        </p>
      </div>
      <ProgressBar value={percent} label="Upload progress" testId="upload-progress" />
      {onCancel && (
        <button type="button" onClick={onCancel} className="self-start rounded text-sm text-stone-600 underline decoration-stone-300 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-stone-400 dark:hover:text-stone-100">
          Cancel upload
        </button>
      )}
    </section>
  );
}

function UsageLine() {
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  if (!subscription.data) return null;
  const { tier, used_seconds, limit_seconds } = subscription.data;
  const left = Math.max(0, limit_seconds - used_seconds);
  return (
    <p className="text-xs text-stone-600 dark:text-stone-400" data-testid="usage-line">
      {tier.charAt(0).toUpperCase() + tier.slice(1)} plan: {formatMinutes(used_seconds)} of {formatMinutes(limit_seconds)} used this period
      {left === 0 ? " (allowance used up)" : ""}.{" "}
      <Link className="rounded underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500" href="/dashboard/billing">
        {left === 0 ? "Get more" : "Plans and usage"}
      </Link>
    </p>
  );
}

function Spinner() {
  return <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-white/40 border-t-white" />;
}
