"use client";

import { useEffect, useId, useRef, useState } from "react";
import { downloadHref, FORMAT_TABS, type Format } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";

/** .txt and .srt, what most people want, up front; the other formats in a menu one click away. */
export function Downloads({ transcriptId }: { transcriptId: string }) {
  const link = (format: Format, extension: string, primary = false) => (
    <a
      key={format}
      href={downloadHref(transcriptId, format)}
      download
      className={buttonClass(primary ? "primary" : "secondary")}
      data-testid={`download-${extension}`}
    >
      Download .{extension}
    </a>
  );
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="transcript-downloads">
      {link("text", "txt", true)}
      {link("srt", "srt")}
      <OtherFormats transcriptId={transcriptId} />
    </div>
  );
}

/**
 * A disclosure menu that closes when the reader moves on: Escape (focus back on its button), a click
 * outside, or focus leaving it.
 */
function OtherFormats({ transcriptId }: { transcriptId: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={(event) => {
        if (event.key !== "Escape" || !open) return;
        event.preventDefault();
        setOpen(false);
        toggle.current?.focus();
      }}
      onBlur={(event) => {
        if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className={buttonClass()}
        data-testid="download-more"
      >
        Other formats
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="absolute right-0 z-30 mt-1 flex w-44 flex-col gap-1 rounded-md border border-stone-200 bg-white p-1 shadow-lg"
        data-testid="download-menu"
      >
        {FORMAT_TABS.filter((tab) => tab.format !== "text" && tab.format !== "srt").map((tab) => (
          <a
            key={tab.format}
            href={downloadHref(transcriptId, tab.format)}
            download
            onClick={() => setOpen(false)}
            className={`rounded px-2 py-1.5 text-sm hover:bg-stone-100 max-sm:min-h-11 max-sm:content-center ${focusRing}`}
          >
            Download .{tab.extension}
          </a>
        ))}
      </div>
    </div>
  );
}
