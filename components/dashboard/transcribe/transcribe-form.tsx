"use client";

import { useId, type DragEvent, type FormEvent } from "react";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus";
import { FileDropZone } from "@/components/dashboard/file-drop-zone";
import { RecognitionOff } from "@/components/dashboard/transcribe/first-run";
import { Spinner } from "@/components/dashboard/transcribe/upload-panel";
import { UsageLine } from "@/components/dashboard/transcribe/usage-line";

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
  ["auto", "Detect (speech recognition)"],
];

export type Mode = "link" | "file";

const tabClass = `rounded px-3 py-1.5 text-sm text-stone-600 hover:bg-stone-100 aria-selected:bg-stone-900 aria-selected:text-white aria-selected:hover:bg-stone-900 max-sm:min-h-11 ${focusRing}`;

/** The Transcribe form: Link or File, the language, the button; what works here and the allowance below. */
export function TranscribeForm(props: {
  mode: Mode;
  onMode: (mode: Mode) => void;
  url: string;
  onUrl: (url: string) => void;
  lang: string;
  onLang: (lang: string) => void;
  /** Names and terms for speech recognition, comma-separated (the API's `vocabulary`). */
  vocabulary: string;
  onVocabulary: (vocabulary: string) => void;
  file: File | null;
  onFile: (file: File | null) => void;
  speechRecognition: boolean;
  pending: boolean;
  uploading: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onDragOver: (event: DragEvent<HTMLFormElement>) => void;
  onDrop: (event: DragEvent<HTMLFormElement>) => void;
}) {
  const { mode, pending, speechRecognition } = props;
  const ids = { tabs: useId(), panel: useId() };
  const fileBlocked = mode === "file" && !speechRecognition;
  return (
    <form
      onSubmit={props.onSubmit}
      onDragEnter={props.onDragOver}
      onDragOver={props.onDragOver}
      onDrop={props.onDrop}
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4"
      aria-label="Transcribe a link or a file"
    >
      <div
        role="tablist"
        aria-label="What to transcribe"
        className="inline-flex self-start rounded-md border border-stone-200 bg-white p-0.5"
      >
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
            onClick={() => props.onMode(tab)}
            onKeyDown={(event) => {
              if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
              event.preventDefault();
              const next = tab === "link" ? "file" : "link";
              props.onMode(next);
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
              value={props.url}
              onChange={(event) => props.onUrl(event.target.value)}
              className={`w-full ${controlClass}`}
              data-testid="transcribe-url"
            />
          </label>
        ) : (
          <div className="flex flex-1 flex-col gap-1 text-sm">
            <span className="font-medium" aria-hidden="true">
              Audio or video file
            </span>
            {speechRecognition ? (
              <FileDropZone file={props.file} onFile={props.onFile} disabled={pending} />
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
              value={props.lang}
              onChange={(event) => props.onLang(event.target.value)}
              className={`w-full ${controlClass}`}
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
            className={buttonClass("primary", "lg")}
            data-testid="transcribe-submit"
          >
            {pending && <Spinner />}
            {pending ? (props.uploading ? "Uploading…" : "Transcribing…") : "Transcribe"}
          </button>
        </div>
      </div>
      {speechRecognition && (
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">
            Names and terms <span className="font-normal text-stone-600">(optional, comma-separated)</span>
          </span>
          <input
            name="vocabulary"
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder="Kubernetes, Nguyễn Thị Lan, PostgreSQL"
            value={props.vocabulary}
            onChange={(event) => props.onVocabulary(event.target.value)}
            className={`w-full ${controlClass}`}
            data-testid="transcribe-vocabulary"
          />
        </label>
      )}
      <p className="text-xs text-stone-600">
        {mode === "link"
          ? `YouTube, X, TikTok, Facebook, Instagram, RedNote and Vimeo links${speechRecognition ? "" : " that have captions"}. Asking again for a transcript already in your history is free.`
          : speechRecognition
            ? "MP3, M4A, WAV, Ogg, FLAC, AAC, MP4, MOV, WebM or MKV. Uploaded files are transcribed by speech recognition in the background; you can leave this page and find the result in History."
            : "Links with captions still work: use the Link tab."}
      </p>
      <UsageLine />
    </form>
  );
}
