"use client";

import { useId, useRef, useState, type DragEvent } from "react";
import { formatBytes, UPLOAD_ACCEPT } from "@/lib/browser/uploads";
import { buttonClass } from "@/components/ui/button";

/** Whether a drag carries files (and not, say, selected text or a link). */
export function dragHasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

/**
 * One audio or video file: dropped on the zone or picked with "Choose file". The chosen file is shown
 * with its size and can be replaced or removed. The form refuses what is not audio or video before
 * uploading (lib/browser/uploads isAudioOrVideo); the server has the last word (its allow-list, then the
 * file's first bytes).
 */
export function FileDropZone({
  file,
  onFile,
  disabled = false,
}: {
  file: File | null;
  onFile: (file: File | null) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !dragHasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setOver(true);
  };

  return (
    <div
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (disabled || !dragHasFiles(event)) return;
        event.preventDefault();
        setOver(false);
        const dropped = event.dataTransfer.files[0];
        if (dropped) onFile(dropped);
      }}
      className={`flex min-h-24 flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed px-4 py-4 text-center text-sm transition-colors ${
        over ? "border-stone-900 bg-stone-100" : "border-stone-300 bg-stone-50"
      } ${disabled ? "opacity-60" : ""}`}
      data-testid="upload-dropzone"
      data-dragover={over || undefined}
    >
      <input
        ref={input}
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-label="Audio or video file"
        aria-describedby={hintId}
        disabled={disabled}
        tabIndex={-1}
        className="sr-only"
        onChange={(event) => {
          const picked = event.target.files?.[0] ?? null;
          // Cleared so that choosing the same file again (after Remove) still counts as a change.
          event.target.value = "";
          if (picked) onFile(picked);
        }}
        data-testid="upload-input"
      />
      {file ? (
        <div className="flex w-full flex-wrap items-center justify-between gap-3 text-left">
          <div className="flex min-w-0 items-center gap-3">
            <FileIcon />
            <div className="min-w-0">
              <p className="truncate font-medium text-stone-900" title={file.name} data-testid="upload-file-name">
                {file.name}
              </p>
              <p className="text-xs text-stone-600" data-testid="upload-file-size">
                {formatBytes(file.size)}
                {file.type ? ` · ${file.type}` : ""}
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <button type="button" disabled={disabled} onClick={() => input.current?.click()} className={buttonClass()}>
              Choose another
            </button>
            <button type="button" disabled={disabled} onClick={() => onFile(null)} className={buttonClass("ghost")}>
              Remove
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="text-stone-700">
            {over ? "Drop the file to upload it" : "Drag an audio or video file here, or"}
          </p>
          <button
            type="button"
            disabled={disabled}
            onClick={() => input.current?.click()}
            className={buttonClass("secondary", "md", "font-medium")}
          >
            Choose file
          </button>
        </>
      )}
      <p id={hintId} className="sr-only">
        Audio or video files such as MP3, M4A, WAV, Ogg, FLAC, MP4, MOV or WebM.
      </p>
    </div>
  );
}

function FileIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-8 shrink-0 text-stone-400"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" strokeLinejoin="round" />
      <path d="M14 3v5h5" strokeLinejoin="round" />
      <path d="M10 17v-5l5-1v5" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="9" cy="17" r="1.25" />
      <circle cx="14" cy="16" r="1.25" />
    </svg>
  );
}
