/**
 * A YouTube playlist page as yt-dlp's real `youtube:tab` extractor reads it: `ytcfg.set({...})` and
 * `var ytInitialData = {...}` with a twoColumnBrowseResultsRenderer → playlistVideoListRenderer of
 * playlistVideoRenderer entries (videoId, title.runs, lengthSeconds). Hand-made, with only the fields that
 * extractor reads. Without `metadata.playlistMetadataRenderer` yt-dlp does not re-ask the InnerTube API
 * (over HTTPS) for unavailable videos, so the whole listing is this one page.
 */
export interface FakePlaylistVideo {
  id: string;
  title: string;
  seconds: number;
}

export function youtubePlaylistPage(playlistId: string, videos: readonly FakePlaylistVideo[]): string {
  const data = {
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              selected: true,
              content: {
                sectionListRenderer: {
                  contents: [
                    {
                      itemSectionRenderer: {
                        contents: [
                          {
                            playlistVideoListRenderer: {
                              playlistId,
                              contents: videos.map((v, i) => ({
                                playlistVideoRenderer: {
                                  videoId: v.id,
                                  title: { runs: [{ text: v.title }] },
                                  lengthSeconds: String(v.seconds),
                                  index: { simpleText: String(i + 1) },
                                  isPlayable: true,
                                },
                              })),
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            },
          },
        ],
      },
    },
  };
  const ytcfg = {
    INNERTUBE_API_KEY: "fake-key",
    INNERTUBE_CONTEXT: { client: { clientName: "WEB", clientVersion: "2.20240101.00.00", hl: "en" } },
    INNERTUBE_CLIENT_NAME: "WEB",
    INNERTUBE_CLIENT_VERSION: "2.20240101.00.00",
  };
  return `<!doctype html><html><head><title>Playlist - YouTube</title></head><body>
<script>var ytcfg = {}; ytcfg.set(${JSON.stringify(ytcfg)});</script>
<script>var ytInitialData = ${JSON.stringify(data)};</script>
</body></html>`;
}
