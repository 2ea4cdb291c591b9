"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";
import { FIELD_SIZING, useGrowToContent } from "@/components/ui/grow-to-content";

/**
 * One paragraph of the reading view corrected where it is read: its text in a box as tall as the text, saved
 * with Ctrl/Cmd+Enter or Save, left with Esc or Cancel. The caller turns the text into segments
 * (lib/edits/paragraph-text.ts) and saves them; an error keeps the box open with what was typed.
 */
export function ParagraphEditor({
  text,
  clock,
  onSave,
  onCancel,
}: {
  text: string;
  clock: string;
  /** Resolves once saved (the caller then closes the editor); rejects with a message to show. */
  onSave: (text: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(text);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const areaId = useId();
  useGrowToContent(box, []);

  // The caret at the end of the text, where a correction usually starts.
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);

  const empty = draft.trim() === "";

  async function save() {
    if (saving || empty) return;
    setSaving(true);
    setError(null);
    try {
      await onSave(draft);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The correction was not saved.");
      setSaving(false);
    }
  }

  function cancel() {
    if (draft !== text && !window.confirm("Leave this paragraph without saving your changes?")) return;
    onCancel();
  }

  return (
    <div ref={box} className="flex flex-col gap-2 font-sans">
      <label className="text-xs text-stone-600" htmlFor={areaId}>
        Correcting the paragraph at <span className="font-mono tabular-nums">{clock}</span>. Ctrl/Cmd+Enter saves, Esc
        leaves; unchanged words keep their timings.
      </label>
      <textarea
        ref={area}
        id={areaId}
        value={draft}
        rows={3}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
            event.preventDefault();
            void save();
          } else if (event.key === "Escape") {
            event.preventDefault();
            cancel();
          }
        }}
        className={`w-full rounded-md border border-stone-300 bg-white px-2 py-1.5 text-[1.0625rem] leading-8 break-words text-stone-900 ${FIELD_SIZING} ${focusRing}`}
        data-testid="paragraph-text"
      />
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant="primary"
          onClick={() => void save()}
          disabled={saving || empty}
          data-testid="paragraph-save"
        >
          {saving ? "Saving…" : "Save"}
        </Button>
        <Button size="sm" onClick={cancel} disabled={saving} data-testid="paragraph-cancel">
          Cancel
        </Button>
        {empty && <span className="text-xs text-stone-600">To remove a whole paragraph, use Edit above.</span>}
      </div>
    </div>
  );
}
