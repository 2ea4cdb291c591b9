import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { resolveSource } from "@/lib/transcripts/resolve-source";
import { mapUpstreamErrors } from "@/lib/captions/upstream-errors";
import { errors } from "@/lib/http/errors";

/** GET /v1/languages?url=: which caption languages a source has, manual and auto-generated. */
export async function listLanguages(url: string, deps: TranscriptDeps) {
  const source = await resolveSource(url, deps, ["query", "url"]);
  const provider = deps.providerFor(source.platform);
  if (!provider) {
    throw errors.notConfigured(
      "no_captions_source",
      "This kind of source has no captions; its transcript comes from speech recognition.",
    );
  }
  const info = await mapUpstreamErrors(() => provider.getInfo(source));
  return {
    platform: info.platform,
    video_id: info.videoId,
    title: info.title,
    duration_seconds: info.durationSeconds,
    languages: info.tracks.map((track) => ({ code: track.lang, name: track.name, kind: track.kind })),
  };
}
