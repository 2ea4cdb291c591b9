import { getDb } from "@/lib/db/client";
import { parseSourceUrl } from "@/lib/sources";
import type { ResolveDeps } from "@/lib/transcripts/resolve-source";

/**
 * The finished transcript of `url` in `lang` in the account's history, or null: how a link to the Transcribe
 * page (`/dashboard?url=…&lang=…`) opens for a role that may read the library but not transcribe. The link is
 * parsed as POST /v1/transcript keys its history; a short link, which needs a request to expand, is not followed.
 */
export async function storedTranscriptForLink(
  accountId: string,
  url: string,
  lang: string,
  deps: Pick<ResolveDeps, "allowPrivateFor">,
): Promise<string | null> {
  const source = parseSourceUrl(url.trim(), { allowPrivateFor: deps.allowPrivateFor });
  if (!source || source.needsResolve) return null;
  const db = await getDb();
  const entry = await db.transcription.findUnique({
    where: {
      userId_platform_videoId_lang: { userId: accountId, platform: source.platform, videoId: source.videoId, lang },
    },
    select: { state: true, transcriptId: true },
  });
  return entry?.state === "done" ? entry.transcriptId : null;
}
