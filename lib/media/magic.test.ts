// Magic bytes on hand-made headers: edge cases and things that are not media. The same function on
// real files made by ffmpeg is covered in media.int.test.ts.
import { describe, expect, it } from "vitest";

import { sniffMediaType } from "./magic";

const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

function id3(size: number, footer = false): Buffer {
  const s = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  return Buffer.concat([b("ID3", [4, 0, footer ? 0x10 : 0], s), Buffer.alloc(size + (footer ? 10 : 0))]);
}

describe("sniffMediaType", () => {
  it.each([
    ["WAV", b("RIFF", [0x24, 0, 0, 0], "WAVEfmt "), "audio/wav"],
    ["RF64 WAV", b("RF64", [0xff, 0xff, 0xff, 0xff], "WAVEds64"), "audio/wav"],
    ["AVI", b("RIFF", [0, 0, 1, 0], "AVI LIST"), "video/x-msvideo"],
    ["MP3 with ID3", b("ID3", [4, 0, 0, 0, 0, 0, 0x10]), "audio/mpeg"],
    ["MP3 frame (MPEG-1 layer III)", b([0xff, 0xfb, 0x90, 0x64]), "audio/mpeg"],
    ["MP3 frame (MPEG-2 layer III, 16 kHz)", b([0xff, 0xf3, 0x48, 0xc4]), "audio/mpeg"],
    ["MP2 frame (layer II)", b([0xff, 0xfd, 0x90, 0x04]), "audio/mpeg"],
    ["AAC ADTS, MPEG-4", b([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), "audio/aac"],
    ["AAC ADTS, MPEG-2", b([0xff, 0xf9, 0x50, 0x80, 0x02, 0x1f, 0xfc]), "audio/aac"],
    ["AAC ADTS with CRC", b([0xff, 0xf0, 0x50, 0x80, 0x02, 0x1f, 0xfc]), "audio/aac"],
    ["Ogg Opus", b("OggS", [0, 2], Buffer.alloc(20).toString("latin1"), "OpusHead"), "audio/ogg"],
    ["Ogg Theora", b("OggS", [0, 2], Buffer.alloc(20).toString("latin1"), [0x80], "theora"), "video/ogg"],
    ["FLAC", b("fLaC", [0, 0, 0, 0x22]), "audio/flac"],
    ["M4A", b([0, 0, 0, 0x20], "ftypM4A ", [0, 0, 2, 0], "M4A mp42isom"), "audio/mp4"],
    ["MP4", b([0, 0, 0, 0x20], "ftypisom", [0, 0, 2, 0], "isomiso2avc1mp41"), "video/mp4"],
    ["MOV", b([0, 0, 0, 0x14], "ftypqt  ", [0, 0, 2, 0], "qt  "), "video/quicktime"],
    ["3GP", b([0, 0, 0, 0x14], "ftyp3gp4", [0, 0, 2, 0], "3gp4"), "video/3gpp"],
    ["ISO BMFF with 64-bit size", b([0, 0, 0, 1], "ftypM4A "), "audio/mp4"],
    ["WebM", b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], "webm"), "video/webm"],
    [
      "Matroska",
      b([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88], "matroska"),
      "video/x-matroska",
    ],
    ["AIFF", b("FORM", [0, 0, 0x10, 0], "AIFFCOMM"), "audio/aiff"],
    ["AIFF-C", b("FORM", [0, 0, 0x10, 0], "AIFCFVER"), "audio/aiff"],
    ["AMR", b("#!AMR\n", [0x3c]), "audio/amr"],
    ["AMR-WB", b("#!AMR-WB\n", [0x44]), "audio/amr-wb"],
    ["CAF", b("caff", [0, 1, 0, 0]), "audio/x-caf"],
    ["ASF", b([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9]), "video/x-ms-asf"],
  ])("%s", (_name, bytes, mime) => {
    expect(sniffMediaType(bytes)).toBe(mime);
  });

  it("looks behind an ID3 tag when the bytes are there", () => {
    expect(sniffMediaType(Buffer.concat([id3(20), b("fLaC", [0, 0, 0, 0x22])]))).toBe("audio/flac");
    expect(sniffMediaType(Buffer.concat([id3(20), b([0xff, 0xf1, 0x50, 0x80])]))).toBe("audio/aac");
    expect(sniffMediaType(Buffer.concat([id3(20, true), b([0xff, 0xfb, 0x90, 0x64])]))).toBe("audio/mpeg");
    // Tag longer than what we were given: still MP3.
    expect(sniffMediaType(id3(10_000).subarray(0, 64))).toBe("audio/mpeg");
  });

  it("accepts a Uint8Array", () => {
    expect(sniffMediaType(new Uint8Array([0x66, 0x4c, 0x61, 0x43, 0, 0, 0, 0x22]))).toBe("audio/flac");
  });

  it.each([
    ["empty", Buffer.alloc(0)],
    ["three bytes", b("fLa")],
    ["HTML", b("<!doctype html><html><head>")],
    ["text", b("hello world, this is not audio")],
    ["JSON", b('{"error":"not found"}')],
    ["PNG", b([0x89], "PNG\r\n", [0x1a, 0x0a])],
    ["JPEG", b([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], "JFIF")],
    ["PDF", b("%PDF-1.7\n")],
    ["ZIP", b("PK", [3, 4, 20, 0])],
    ["RIFF that is neither WAVE nor AVI", b("RIFF", [0, 0, 0, 0], "WEBPVP8 ")],
    ["FORM that is not AIFF", b("FORM", [0, 0, 0, 0], "ILBMBMHD")],
    ["MPEG sync with a reserved version", b([0xff, 0xeb, 0x90, 0x64])],
    ["MPEG sync with a bad bitrate index", b([0xff, 0xfb, 0xf0, 0x64])],
    ["MPEG sync with a reserved sample rate", b([0xff, 0xfb, 0x9c, 0x64])],
    ["ftyp box with a size too small", b([0, 0, 0, 4], "ftypisom")],
    ["M3U playlist", b("#EXTM3U\n#EXTINF:10,\nhttp://example.com/a.mp3\n")],
  ])("%s → null", (_name, bytes) => {
    expect(sniffMediaType(bytes)).toBeNull();
  });
});
