/**
 * YouTube playlist and channel pages as yt-dlp's real `youtube:tab` extractor reads them. A playlist's: `ytcfg.set({...})` and
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
  return browsePage("Playlist - YouTube", data);
}

export interface FakeChannel {
  /** UC + 22 characters. */
  id: string;
  /** Without the @; the channel's page is also served at /@<handle>/videos. */
  handle: string;
  title: string;
  /** Newest first, as the Videos tab lists them. */
  videos: FakePlaylistVideo[];
}

/**
 * A channel's Videos tab as the same extractor reads it: the selected tab (its endpoint's URL ends in /videos) with
 * a richGridRenderer of richItemRenderer → videoRenderer entries, and metadata.channelMetadataRenderer, whose
 * `externalId` yt-dlp reports as `channel_id`.
 */
export function youtubeChannelPage(channel: FakeChannel): string {
  const data = {
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              endpoint: { commandMetadata: { webCommandMetadata: { url: `/@${channel.handle}/videos` } } },
              title: "Videos",
              selected: true,
              content: {
                richGridRenderer: {
                  contents: channel.videos.map((v) => ({
                    richItemRenderer: {
                      content: {
                        videoRenderer: {
                          videoId: v.id,
                          title: { runs: [{ text: v.title }] },
                          lengthText: {
                            simpleText: `${Math.floor(v.seconds / 60)}:${String(v.seconds % 60).padStart(2, "0")}`,
                          },
                        },
                      },
                    },
                  })),
                },
              },
            },
          },
        ],
      },
    },
    metadata: {
      channelMetadataRenderer: {
        title: channel.title,
        externalId: channel.id,
        channelUrl: `https://www.youtube.com/channel/${channel.id}`,
        vanityChannelUrl: `http://www.youtube.com/@${channel.handle}`,
      },
    },
  };
  return browsePage(`${channel.title} - YouTube`, data);
}

function browsePage(title: string, data: unknown): string {
  const ytcfg = {
    INNERTUBE_API_KEY: "fake-key",
    INNERTUBE_CONTEXT: { client: { clientName: "WEB", clientVersion: "2.20240101.00.00", hl: "en" } },
    INNERTUBE_CLIENT_NAME: "WEB",
    INNERTUBE_CLIENT_VERSION: "2.20240101.00.00",
  };
  return `<!doctype html><html><head><title>${title}</title></head><body>
<script>var ytcfg = {}; ytcfg.set(${JSON.stringify(ytcfg)});</script>
<script>var ytInitialData = ${JSON.stringify(data)};</script>
</body></html>`;
}
