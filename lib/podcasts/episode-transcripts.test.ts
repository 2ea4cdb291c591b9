import { describe, expect, it } from "vitest";
import type { FeedEpisode } from "@/lib/podcasts/parse-feed";
import { readFileSync } from "node:fs";
import path from "node:path";
import { FEEDS_DIR } from "@/test/fakes/podcasts/server";
import {
  bestTranscript,
  EPISODES_PER_TURN,
  fetchPublishedSegments,
  rememberEpisodeTranscripts,
  timedFormatOfText,
} from "./episode-transcripts";

// Episodes whose audio is not a podcast file (a YouTube link) are looked at and left alone: no database.
const episode = (i: number): FeedEpisode => ({
  guid: `g${i}`,
  title: `Episode ${i}`,
  audioUrl: `https://www.youtube.com/watch?v=abcdefghij${i % 10}`,
  published: null,
  duration: null,
  transcripts: [{ url: `https://cdn.example/${i}.vtt`, type: "text/vtt", language: null }],
});

describe("rememberEpisodeTranscripts", () => {
  it("reads a page of thousands of episodes a slice per turn of the event loop", async () => {
    const episodes = Array.from({ length: 4 * EPISODES_PER_TURN }, (_, i) => episode(i));
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    await rememberEpisodeTranscripts("user", episodes);
    counting = false;
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});

describe("bestTranscript", () => {
  const t = (type: string) => ({ url: `https://cdn.example/t.${type.split("/")[1]}`, type, language: null });
  it("a timed transcript over a text/plain one; the text/plain one when nothing timed is published", () => {
    expect(bestTranscript([t("text/plain"), t("text/vtt")])?.type).toBe("text/vtt");
    expect(bestTranscript([t("text/plain")])?.type).toBe("text/plain");
    expect(bestTranscript([t("application/pdf")])).toBeNull();
    // A Markdown transcript is a text one (its **Name:** labels are read as names).
    expect(bestTranscript([t("text/markdown")])?.type).toBe("text/markdown");
    expect(bestTranscript([t("text/markdown"), t("application/x-subrip")])?.type).toBe("application/x-subrip");
  });
});

describe("timedFormatOfText", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it("WebVTT and SRT served as text/plain are read as what they are; plain text and look-alikes are not", () => {
    expect(timedFormatOfText(readFileSync(path.join(FEEDS_DIR, "devinterrupted-labs.txt")))).toBe("vtt");
    expect(timedFormatOfText(readFileSync(path.join(FEEDS_DIR, "transcript-example.srt")))).toBe("podcast-srt");
    expect(timedFormatOfText(bytes("\uFEFF\r\nWEBVTT - a title\r\n\r\n"))).toBe("vtt");
    expect(timedFormatOfText(bytes("1\n0:00:01.000 --> 0:00:02.000\nHello"))).toBe("podcast-srt");
    expect(timedFormatOfText(readFileSync(path.join(FEEDS_DIR, "transcript-example.txt")))).toBeNull();
    expect(timedFormatOfText(bytes("WEBVTTS is not a header"))).toBeNull();
    expect(timedFormatOfText(bytes("1\nFirst, a sentence --> with an arrow"))).toBeNull();
    expect(timedFormatOfText(bytes(""))).toBeNull();
  });
});

describe("fetchPublishedSegments", () => {
  const outboundServing = (body: string) => ({
    safeFetchBuffer: async () => ({ ok: true, status: 200, body: new TextEncoder().encode(body) }),
  });
  const published = { transcriptUrl: "https://cdn.example/1.vtt", type: "text/vtt", captionKind: "publisher:x" };

  it("says in a note what the publisher's file lost in reading, and nothing when it was read whole", async () => {
    const broken = "WEBVTT\n\n0.5 --> 2\nKept.\n\n00:02 --> later\nThese four are lost.\n";
    const read = await fetchPublishedSegments(published, { outbound: outboundServing(broken) as never });
    expect(read?.segments.map((s) => s.text)).toEqual(["Kept."]);
    expect(read?.note).toBe(
      "The publisher's transcript file has 1 passage (4 words) that could not be read, their times not being times: they are missing here.",
    );
    const whole = await fetchPublishedSegments(published, {
      outbound: outboundServing("WEBVTT\n\n0.5 --> 2\nKept.\n") as never,
    });
    expect(whole?.note).toBeNull();
  });
});
