import { describe, expect, it } from "vitest";
import { clock, momentLink, quoteText } from "./quote";

describe("a quote with its timestamp link", () => {
  it("writes times as the player does", () => {
    expect(clock(0)).toBe("0:00");
    expect(clock(75.9)).toBe("1:15");
    expect(clock(3725)).toBe("1:02:05");
    expect(clock(-3)).toBe("0:00");
  });

  it("links a YouTube moment with YouTube's own t parameter", () => {
    const source = { platform: "youtube", video_id: "GJLlxj_dtq8", source_url: "https://youtu.be/GJLlxj_dtq8" };
    expect(momentLink(source, 5.7)).toBe("https://www.youtube.com/watch?v=GJLlxj_dtq8&t=5s");
  });

  it("links another source's moment with the media fragment, replacing one it had", () => {
    const episode = { platform: "podcast", video_id: "x", source_url: "https://cdn.example.com/ep.mp3?a=1#t=3" };
    expect(momentLink(episode, 125.2)).toBe("https://cdn.example.com/ep.mp3?a=1#t=125");
    expect(momentLink({ platform: "upload", video_id: "x", source_url: "not a url" }, 4)).toBe("not a url");
  });

  it("quotes the line, its source and moment", () => {
    const link = "https://www.youtube.com/watch?v=GJLlxj_dtq8&t=5s";
    expect(quoteText({ text: " just something shorter ", start: 5.7 }, "Surface Go Review", link)).toBe(
      "“just something shorter” — Surface Go Review (0:05) https://www.youtube.com/watch?v=GJLlxj_dtq8&t=5s",
    );
    expect(quoteText({ text: "a", start: 61 }, null, "https://x.example/a")).toBe("“a” (1:01) https://x.example/a");
  });
});
