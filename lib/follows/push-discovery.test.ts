import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeFeed } from "@/lib/podcasts/decode-feed";
import { parseFeed } from "@/lib/podcasts/parse-feed";
import { parsePlaylistJson } from "@/lib/imports/playlist";
import { channelIdOfUrl, discoverFeedPush, linkRelations, youtubeChannelPush } from "@/lib/follows/push-discovery";

const FETCHED = "https://podcasts.example/show.rss";
const item = `<item><title>One</title><guid>1</guid><enclosure url="https://podcasts.example/1.mp3" type="audio/mpeg"/></item>`;

describe("WebSub discovery", () => {
  it("reads a FeedBurner feed's atom10:link hub and self (a real feed)", () => {
    const bytes = readFileSync("test/fixtures/feeds/jn-iso-8859-1.rss");
    const feed = parseFeed(decodeFeed(bytes, "application/rss+xml; charset=iso-8859-1"));
    expect(discoverFeedPush(feed, null, FETCHED)).toEqual({
      hub: "http://pubsubhubbub.appspot.com/",
      topic: "http://feeds.jn.pt/JN-ULTIMAS",
    });
  });

  it("reads RSS atom:link and Atom link rel=hub|self; without self the topic is the fetched URL", () => {
    const rss = parseFeed(
      `<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>S</title>` +
        `<atom:link rel="self" href="https://podcasts.example/feed"/><atom:link rel="hub" href="https://hub.example/"/>${item}</channel></rss>`,
    );
    expect(discoverFeedPush(rss, null, FETCHED)).toEqual({
      hub: "https://hub.example/",
      topic: "https://podcasts.example/feed",
    });
    const atom = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><link rel="alternate" href="https://a.example/"/>` +
        `<link rel="hub" href="https://hub.example/atom"/></feed>`,
    );
    expect(discoverFeedPush(atom, null, FETCHED)).toEqual({ hub: "https://hub.example/atom", topic: FETCHED });
  });

  it("prefers the response's Link header, resolves relative targets, and finds nothing without a hub", () => {
    const feed = { hub: "https://body-hub.example/", self: "https://body.example/self" };
    const header = `<https://header-hub.example/>; rel="hub", </self.rss>; rel=self`;
    expect(discoverFeedPush(feed, header, FETCHED)).toEqual({
      hub: "https://header-hub.example/",
      topic: "https://podcasts.example/self.rss",
    });
    expect(linkRelations(`<https://h.example/>; rel="hub self"`, FETCHED)).toEqual({
      hub: "https://h.example/",
      self: "https://h.example/",
    });
    expect(linkRelations(`<https://x.example/>; rel="alternate"`, FETCHED)).toEqual({ hub: null, self: null });
    expect(discoverFeedPush({ hub: null, self: "https://body.example/self" }, null, FETCHED)).toBeNull();
    expect(discoverFeedPush({ hub: "javascript:alert(1)", self: null }, null, FETCHED)).toBeNull();
  });

  it("gives a YouTube channel its videos feed as the topic, from the URL or yt-dlp's listing; a playlist none", () => {
    const id = "UCabcdefghijklmnopqrstuv";
    expect(channelIdOfUrl(`https://www.youtube.com/channel/${id}/videos`)).toBe(id);
    expect(channelIdOfUrl("https://www.youtube.com/@handle/videos")).toBeNull();
    expect(parsePlaylistJson({ id, channel_id: id, title: "C", entries: [] }, 10).channelId).toBe(id);
    expect(parsePlaylistJson({ id: "PLtest0000000000000000000000000001", entries: [] }, 10).channelId).toBeNull();
    expect(youtubeChannelPush(id, "https://pubsubhubbub.appspot.com/")).toEqual({
      hub: "https://pubsubhubbub.appspot.com/",
      topic: `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${id}`,
    });
    expect(youtubeChannelPush(null, "https://pubsubhubbub.appspot.com/")).toBeNull();
  });
});
