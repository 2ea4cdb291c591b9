// Browser side of publishing: the /v1 calls the dashboard makes.
import type { PublishResponse } from "@/lib/publishing/schemas";
import { apiFetch } from "@/lib/browser/api";

export type { PublishResponse };

export function publishTranscript(url: string, lang: string): Promise<PublishResponse> {
  return apiFetch<PublishResponse>("/v1/publish", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, lang }),
  });
}

export async function unpublishTranscript(slug: string): Promise<void> {
  await apiFetch<null>(`/v1/publish/${encodeURIComponent(slug)}`, { method: "DELETE" });
}
