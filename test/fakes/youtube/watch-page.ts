import type { ServerResponse } from "node:http";

// A watch page as the browser extension sees one: YouTube's player element (`video.html5-main-video`) playing
// silent audio as long as the captioned video, the channel's link in YouTube's owner element (the player
// fixture's ownerProfileUrl), and a link to another video that navigates the way YouTube's single-page app does
// (history.pushState, a new source, the owner element emptied, then `yt-navigate-finish` on the document).

/** A mono 8 kHz 8-bit PCM WAV of `seconds` of silence: a media file any Chromium plays without codecs. */
export function silenceWav(seconds: number): Buffer {
  const rate = 8000;
  const samples = Math.round(rate * seconds);
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + samples, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(samples, 40);
  return wav;
}

/** A media file with byte ranges (RFC 9110 14), which a browser needs to seek in it. */
export function sendMedia(res: ServerResponse, body: Buffer, range: string | undefined): void {
  const asked = /^bytes=(\d*)-(\d*)$/.exec(range ?? "");
  const headers = { "content-type": "audio/wav", "accept-ranges": "bytes" };
  if (!asked || (asked[1] === "" && asked[2] === "")) {
    res.writeHead(200, { ...headers, "content-length": body.byteLength });
    return void res.end(body);
  }
  const last = body.byteLength - 1;
  const start = asked[1] === "" ? Math.max(0, body.byteLength - Number(asked[2])) : Number(asked[1]);
  const end = asked[1] === "" || asked[2] === "" ? last : Math.min(Number(asked[2]), last);
  if (start > end) {
    res.writeHead(416, { "content-range": `bytes */${body.byteLength}` });
    return void res.end();
  }
  res.writeHead(206, {
    ...headers,
    "content-length": end - start + 1,
    "content-range": `bytes ${start}-${end}/${body.byteLength}`,
  });
  res.end(body.subarray(start, end + 1));
}

export const WATCH_MEDIA_PATH = "/fake-media/silence.wav";

/** The channel a player fixture names: its name and link as the watch page shows them. */
export interface Owner {
  name: string;
  url: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function watchPage(videoId: string, nextId: string | null, owner: Owner | null = null): string {
  const next = nextId
    ? `<a id="next" href="/watch?v=${nextId}">Up next</a>
<script>
document.getElementById("next").addEventListener("click", (event) => {
  event.preventDefault();
  history.pushState({}, "", event.currentTarget.href);
  const video = document.querySelector("video");
  video.src = "${WATCH_MEDIA_PATH}?v=${nextId}";
  video.load();
  document.querySelector("ytd-video-owner-renderer")?.remove();
  document.title = "${nextId} - YouTube";
  document.dispatchEvent(new Event("yt-navigate-finish"));
});
</script>`
    : "";
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${videoId} - YouTube</title></head>
<body><h1>Watch ${videoId}</h1>
<video class="html5-main-video" src="${WATCH_MEDIA_PATH}?v=${videoId}" muted controls preload="auto"></video>
${owner ? `<ytd-video-owner-renderer><a class="yt-simple-endpoint" href="${escapeHtml(new URL(owner.url).pathname)}">${escapeHtml(owner.name)}</a></ytd-video-owner-renderer>` : ""}
${next}</body></html>`;
}
