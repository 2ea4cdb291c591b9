import { resolvePodcastEndpoint } from "@/lib/podcasts/endpoints";
import { resolvePodcast } from "@/lib/podcasts/resolve-podcast";
import { resolveResponseSchema } from "@/lib/podcasts/schemas";

import type { RegisterTool, ToolContext } from "./context";
import { outputOf, urlInput } from "./inputs";
import { run } from "./run-tool";

export function registerResolvePodcast(tool: RegisterTool, ctx: ToolContext): void {
  tool(
    "resolve_podcast",
    {
      title: "Resolve a podcast",
      description:
        "What a podcast link is: an RSS/Atom feed or an Apple Podcasts show link → the show and its episodes (newest first, with audio URLs); " +
        "an Apple Podcasts episode link → that episode; a direct audio link → itself. Pass an episode's audio_url to get_transcript as url.",
      inputSchema: {
        url: urlInput.describe("A feed URL, an Apple Podcasts show or episode link, or an audio file's URL"),
      },
      outputSchema: outputOf(resolveResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) =>
      run(ctx, resolvePodcastEndpoint, async () => {
        const resolved = await resolvePodcast(ctx.userId, { url }, ctx.podcastDeps);
        const episodes = (resolved.episodes ?? []).map(
          (e) =>
            `- ${e.title}${e.published ? ` (${e.published.slice(0, 10)})` : ""}${e.duration ? `, ${e.duration}` : ""}: ${e.audio_url}`,
        );
        const text = [
          `${resolved.kind}${resolved.show ? `: ${resolved.show.title}` : ""}`,
          ...(resolved.audio_url ? [`Audio: ${resolved.audio_url}`] : []),
          ...(episodes.length > 0 ? [`${episodes.length} episode(s):`, ...episodes] : []),
        ].join("\n");
        return { content: [{ type: "text", text }], structuredContent: resolved };
      }),
  );
}
