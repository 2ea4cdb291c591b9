// The dashboard's "Export as notes": POST /v1/exports with the session cookie, the zip saved as a file.

import type { HistoryParams } from "@/lib/browser/transcripts";
import { ApiRequestError, errorCode, errorMessage } from "@/lib/browser/api";

/** What History's export takes: the list's own filters (its finished entries), or the whole library. */
export function historyExportSelection(params: Pick<HistoryParams, "q" | "platform">) {
  const q = params.q.trim();
  return q || params.platform ? { history: { platform: params.platform, q: q || null } } : { library: true as const };
}

/** The file name a Content-Disposition gives (RFC 5987 `filename*` first), or `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // a malformed escape: the plain name below
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? plain[1]!.trim() : fallback;
}

/** The notes of `selection` as a zip: its bytes, its name and how many notes it holds. */
export async function fetchNotesZip(selection: object): Promise<{ blob: Blob; name: string; count: number }> {
  const response = await fetch("/v1/exports", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...selection, format: "md", zip: true }),
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    throw new ApiRequestError(response.status, errorMessage(response.status, body), errorCode(body));
  }
  return {
    blob: await response.blob(),
    name: attachmentName(response.headers.get("content-disposition"), "Verbatim notes.zip"),
    count: Number(response.headers.get("x-export-count") ?? 0),
  };
}

/** Hands `blob` to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
