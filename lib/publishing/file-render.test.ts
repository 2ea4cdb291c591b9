import { describe, expect, it } from "vitest";
import { renderPodcastHtml, renderTranscript, renderVtt, type Segment } from "@/lib/formats";
import { runOffThread } from "@/lib/process/off-thread";
import { renderFileJob, type FileRenderJob, type FileRenderOutcome } from "@/lib/publishing/file-render";

// A published file rendered from its segments' JSON text, on the spot and in the worker thread
// (lib/process/off-thread.ts, the real one): the same bytes as the renderers give from the segments.

const segments: Segment[] = Array.from({ length: 400 }, (_, i) => ({
  start: i * 3,
  end: i * 3 + 2.5,
  text: `Line ${i} — «quoted» & <marked> words`,
  ...(i % 50 === 0 ? { speaker: `Speaker ${i / 50}` } : {}),
}));
const meta = { title: "A talk", sourceUrl: "https://example.com/a", platform: "youtube", videoId: "abc", lang: "fr" };
const job = (file: FileRenderJob["file"]): FileRenderJob => ({
  kind: "public-file",
  file,
  segmentsJson: JSON.stringify(segments),
  meta,
});
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("renderFileJob", () => {
  it("renders a podcast file or a download from the segments' text, as UTF-8 bytes", () => {
    expect(text(renderFileJob(job({ podcast: "vtt" })).bytes)).toBe(renderVtt(segments));
    expect(text(renderFileJob(job({ podcast: "html" })).bytes)).toBe(renderPodcastHtml(segments, meta));
    const md = renderFileJob(job({ download: "md" }));
    const expected = renderTranscript("md", segments, meta);
    expect({ ...md, bytes: text(md.bytes) }).toEqual({
      bytes: expected.content,
      contentType: expected.contentType,
      extension: expected.extension,
    });
  });

  it("gives the same bytes from the worker thread, moved back whole", async () => {
    const there = await runOffThread<FileRenderOutcome>(
      job({ podcast: "html" }),
      { threads: 1, timeoutMs: 60_000, memoryMb: 128 },
      () => new Error("too long"),
    );
    expect(there.bytes).toBeInstanceOf(Uint8Array);
    expect(text(there.bytes)).toBe(text(renderFileJob(job({ podcast: "html" })).bytes));
  });
});
