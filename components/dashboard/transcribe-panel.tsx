"use client";

import { useEffect, useRef, useState, type DragEvent, type FormEvent } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { parseVocabulary, type Transcript } from "@/lib/browser/transcripts";
import { isAudioOrVideo } from "@/lib/browser/uploads";
import { fetchLanguages, hasCaptionsIn, type LanguagesResponse } from "@/lib/browser/languages";
import { describeTranscribeError } from "@/lib/browser/transcribe-errors";
import { ApiRequestError } from "@/lib/browser/api";
import { parseFindText, parseMomentSeconds } from "@/lib/browser/search";
import { parseEditTarget, parsePublishedSlug, publishFailure } from "@/lib/browser/transcript-address";
import { TranscriptViewer } from "@/components/transcript/dashboard/lazy-transcript-viewer";
import { JobPanel } from "@/components/dashboard/job-panel";
import { StoredTranscript } from "@/components/transcript/dashboard/stored-transcript";
import { dragHasFiles } from "@/components/dashboard/file-drop-zone";
import type { WhatWorksView } from "@/lib/browser/what-works";
import { FirstRun, TranscribeHeading } from "@/components/dashboard/transcribe/first-run";
import { TranscribeError, errorBoxClass } from "@/components/dashboard/transcribe/transcribe-error";
import { TranscribeForm, type Mode } from "@/components/dashboard/transcribe/transcribe-form";
import { UploadPanel } from "@/components/dashboard/transcribe/upload-panel";
import { RecognitionPrompt } from "@/components/dashboard/transcribe/recognition-prompt";
import { isAbort, useTranscribeRequest } from "@/components/dashboard/transcribe/use-transcribe-request";
import { useAbilities } from "@/components/dashboard/abilities";

// The API's language rule (lib/transcripts/schemas.ts requestLangSchema), checked here to say it in plain words.
const LANGUAGE_TAG = /^(auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$/;
const LANGUAGE_HINT = "The language must be a code such as en, de or pt-BR, or auto.";

interface FileInfo {
  name: string;
  size: number;
}

/**
 * The Transcribe page: a link or a file and a language in, the transcript out. A file is signed, PUT
 * (with a progress bar) and transcribed by speech recognition as a job, like links without captions.
 * The address holds the request: `?url=…&lang=…` submits at once (History links here), and
 * `?job=<id>` watches a job (so a reload resumes it instead of asking again), and `?transcript=<id>`
 * shows a transcript from the history (an import's finished items link there). A transcript (or a job)
 * leads the page, title on top; the form to transcribe another follows it. `speechRecognition` says
 * whether this server can transcribe files and caption-less videos; `whatWorks` is the first-run panel's view.
 */
export function TranscribePanel({
  speechRecognition,
  whatWorks,
  initialTranscript = null,
}: {
  speechRecognition: boolean;
  /** What works on this server (lib/browser/what-works.ts), for the first-run panel. */
  whatWorks: WhatWorksView;
  initialTranscript?: Transcript | null;
}) {
  const router = useRouter();
  const pathname = usePathname();
  // A viewer reads what the library holds (?transcript=, ?job=) but is offered no way to transcribe.
  const mayTranscribe = useAbilities().transcribe;
  const searchParams = useSearchParams();
  const queryUrl = searchParams.get("url")?.trim() ?? "";
  const queryLang = searchParams.get("lang")?.trim() || "en";
  const queryJob = searchParams.get("job")?.trim() || null;
  const queryTranscript = searchParams.get("transcript")?.trim() || null;
  const queryMoment = parseMomentSeconds(searchParams.get("t"));
  const queryFind = parseFindText(searchParams.get("find"));
  // Read once, as the viewer opens: what a control followed as a link (before the page's scripts ran) asked for.
  const queryEdit = parseEditTarget(searchParams.get("edit"));
  const queryPublished = parsePublishedSlug(searchParams.get("published"));
  const queryPublishFailure = publishFailure(searchParams.get("publish_error"));
  const queryKey = `${queryUrl}\n${queryLang}`;

  const [mode, setMode] = useState<Mode>(queryJob && !queryUrl ? "file" : "link");
  const [url, setUrl] = useState(queryUrl);
  const [lang, setLang] = useState(queryLang);
  const [vocabulary, setVocabulary] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // The file behind a job started here, to name it in the job panel.
  const [jobFile, setJobFile] = useState<{ jobId: string; file: FileInfo } | null>(null);
  // A typed link without captions in the language asked for waits here for the user's choice.
  const [prompt, setPrompt] = useState<{ input: { url: string; lang: string }; info: LanguagesResponse } | null>(null);
  const [checking, setChecking] = useState(false);

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

  const { transcribe, upload, cancelUpload } = useTranscribeRequest((jobId, submission) => {
    // The job goes into the address, so a reload (or a shared link) keeps watching it.
    const search = new URLSearchParams(
      submission.kind === "link" ? { url: submission.url, lang: submission.lang } : {},
    );
    search.set("job", jobId);
    router.replace(`${pathname}?${search.toString()}`, { scroll: false });
    if (submission.kind === "file") {
      setJobFile({ jobId, file: { name: submission.file.name, size: submission.file.size } });
      setFile(null);
    }
  });
  const { mutate } = transcribe;

  // The last request sent, so the address written back after a submit does not send it again.
  const lastSent = useRef<string | null>(null);
  useEffect(() => {
    if (!queryUrl || lastSent.current === queryKey) return;
    lastSent.current = queryKey;
    // A job in the address is watched, not asked for again; a language the API would refuse is said here.
    if (queryJob || !LANGUAGE_TAG.test(queryLang) || !mayTranscribe) return;
    mutate({ kind: "link", url: queryUrl, lang: queryLang });
  }, [queryKey, queryUrl, queryLang, queryJob, mutate, mayTranscribe]);

  function sendLink(input: { url: string; lang: string; vocabulary?: string[] }) {
    setPrompt(null);
    lastSent.current = `${input.url}\n${input.lang}`;
    mutate({ kind: "link", ...input });
    router.replace(`${pathname}?${new URLSearchParams({ url: input.url, lang: input.lang }).toString()}`, {
      scroll: false,
    });
  }

  /**
   * A typed link: when the video has no captions in that language (GET /v1/languages), ask before paid
   * speech recognition. Links from the address (History, retries) go straight on, as the API would.
   */
  async function checkThenSend(input: { url: string; lang: string; vocabulary?: string[] }) {
    setPrompt(null);
    setChecking(true);
    const info = await fetchLanguages(input.url).catch(() => null);
    setChecking(false);
    if (info && !hasCaptionsIn(info.languages, input.lang)) setPrompt({ input, info });
    else sendLink(input);
  }

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
      mutate({ kind: "file", file, lang: language, vocabulary: parseVocabulary(vocabulary) });
      router.replace(pathname, { scroll: false });
      return;
    }
    if (url.trim()) void checkThenSend({ url: url.trim(), lang: language, vocabulary: parseVocabulary(vocabulary) });
  }

  /** Something new was chosen or typed: the last attempt's error no longer applies. */
  function clearErrors() {
    setFormError(null);
    setPrompt(null);
    if (transcribe.isError) transcribe.reset();
  }

  function chooseFile(chosen: File | null) {
    clearErrors();
    if (chosen) setMode("file");
    if (chosen && !speechRecognition) return;
    if (chosen && !isAudioOrVideo(chosen)) {
      setFile(null);
      setFormError(
        `“${chosen.name}” is not an audio or video file. Choose a recording such as MP3, M4A, WAV, MP4 or MOV.`,
      );
      return;
    }
    setFile(chosen);
  }

  function trySample(link: string) {
    clearErrors();
    setMode("link");
    setUrl(link);
    setLang("en");
    sendLink({ url: link, lang: "en" });
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
  const watchedJob =
    pending || transcribe.isError ? null : result ? (result.kind === "queued" ? result.jobId : null) : queryJob;
  const shownError =
    transcribe.isError && !isAbort(transcribe.error)
      ? describeTranscribeError(
          transcribe.error,
          transcribe.variables?.kind === "link" ? transcribe.variables.url : null,
        )
      : null;
  const shownTranscript = result?.kind === "transcript" && !pending ? result.transcript : null;
  const storedId =
    queryTranscript && !watchedJob && !result && !pending && !transcribe.isError ? queryTranscript : null;
  const viewing = !!shownTranscript || !!storedId || !!watchedJob;
  const showingSomething =
    viewing || pending || checking || !!prompt || transcribe.isError || !!formError || !!queryUrl;
  const addressError =
    queryUrl && !queryJob && !LANGUAGE_TAG.test(queryLang) && !pending && !result && !transcribe.isError
      ? LANGUAGE_HINT
      : null;
  const formMessage = formError ?? addressError;

  const form = !mayTranscribe ? (
    <p className="text-sm text-stone-600" data-testid="read-only-library">
      {queryUrl && !viewing ? "This link's transcript is not in this library yet. " : ""}
      Open a transcript from{" "}
      <Link href="/dashboard/history" className="underline">
        History
      </Link>
      .
    </p>
  ) : (
    <TranscribeForm
      mode={mode}
      onMode={(next) => {
        setMode(next);
        clearErrors();
      }}
      url={url}
      onUrl={(next) => {
        setUrl(next);
        clearErrors();
      }}
      lang={lang}
      onLang={setLang}
      vocabulary={vocabulary}
      onVocabulary={setVocabulary}
      file={file}
      onFile={chooseFile}
      speechRecognition={speechRecognition}
      pending={pending || checking}
      uploading={!!upload && upload.phase !== "starting"}
      onSubmit={onSubmit}
      onDragOver={onFormDragOver}
      onDrop={onFormDrop}
    />
  );

  return (
    <div className="flex flex-col gap-6">
      {viewing ? (
        <>
          {watchedJob && (
            <JobPanel key={watchedJob} jobId={watchedJob} file={jobFile?.jobId === watchedJob ? jobFile.file : null} />
          )}
          {shownTranscript && <TranscriptViewer key={shownTranscript.id} transcript={shownTranscript} />}
          {storedId && (
            <StoredTranscript
              key={`${storedId}@${queryMoment ?? ""}@${queryFind}`}
              id={storedId}
              initial={initialTranscript}
              startAt={queryMoment}
              find={queryFind}
              edit={queryEdit}
              published={queryPublished}
              publishFailure={queryPublishFailure}
            />
          )}
          {mayTranscribe && (
            <section
              aria-labelledby="transcribe-another"
              className="flex flex-col gap-3 border-t border-stone-200 pt-6"
            >
              <h2 id="transcribe-another" className="text-lg font-semibold">
                Transcribe another
              </h2>
              {form}
            </section>
          )}
        </>
      ) : (
        <>
          <TranscribeHeading />
          {form}
        </>
      )}

      {prompt && (
        <RecognitionPrompt
          lang={prompt.input.lang}
          info={prompt.info}
          speechRecognition={speechRecognition}
          onLanguage={(code) => {
            setLang(code);
            sendLink({ url: prompt.input.url, lang: code });
          }}
          onRecognise={() => sendLink(prompt.input)}
          onCancel={() => setPrompt(null)}
        />
      )}
      {formMessage && (
        <div role="alert" className={errorBoxClass} data-testid="transcribe-error">
          {formMessage}
        </div>
      )}
      {shownError && !formMessage && (
        <TranscribeError
          message={shownError.message}
          detail={shownError.detail ?? null}
          onRetry={
            shownError.retry && transcribe.variables ? () => transcribe.variables && mutate(transcribe.variables) : null
          }
          upgrade={transcribe.error instanceof ApiRequestError && transcribe.error.status === 402}
        />
      )}
      {transcribe.isError && isAbort(transcribe.error) && (
        <p role="status" className="text-sm text-stone-600" data-testid="upload-cancelled">
          Upload cancelled.
        </p>
      )}
      {pending && upload && (
        <UploadPanel upload={upload} onCancel={upload.phase === "starting" ? null : cancelUpload} />
      )}
      {!showingSomething && mayTranscribe && <FirstRun view={whatWorks} onTrySample={trySample} />}
    </div>
  );
}
