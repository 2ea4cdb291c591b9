import { formatBytes } from "@/lib/browser/uploads";
import { buttonClass } from "@/components/ui/button";
import { ProgressBar } from "@/components/dashboard/progress-bar";
import type { UploadState } from "@/components/dashboard/transcribe/use-transcribe-request";

/** A file on its way up: what, how far, and a way to stop it (until the upload is done). */
export function UploadPanel({ upload, onCancel }: { upload: UploadState; onCancel: (() => void) | null }) {
  const percent = upload.total > 0 ? (upload.loaded / upload.total) * 100 : 0;
  const heading =
    upload.phase === "signing"
      ? "Preparing the upload…"
      : upload.phase === "uploading"
        ? "Uploading"
        : "Uploaded. Starting the transcription…";
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4"
      aria-label="Upload"
      data-testid="upload-panel"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-3 text-sm">
        <p className="min-w-0 text-stone-700">
          <span className="font-medium">{heading}</span> <span className="break-all text-stone-600">{upload.name}</span>
        </p>
        <p className="text-xs text-stone-600 tabular-nums" data-testid="upload-bytes">
          {formatBytes(upload.loaded)} of {formatBytes(upload.total)} · {Math.round(percent)}%
        </p>
      </div>
      <ProgressBar value={percent} label="Upload progress" testId="upload-progress" />
      {onCancel && (
        <button type="button" onClick={onCancel} className={buttonClass("ghost", "md", "self-start")}>
          Cancel upload
        </button>
      )}
    </section>
  );
}

export function Spinner() {
  return (
    <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-white/40 border-t-white" />
  );
}
