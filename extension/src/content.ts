// The content script: runs in the page's isolated world and only reads its media element's clock (current time,
// duration, paused, its source address) and seeks it when the panel asks; of the markup, it reads two addresses
// (the channel's link beside a YouTube video, the feed a podcast page announces), believed only in the shapes
// lib/show.ts allows. Nothing of the page's scripts is read, nothing is written into the page, and nothing of
// the page runs in the extension.
import { browserApi, type MessageSender } from "./browser-api";
import { parsePlayerRequest, type PlayerState } from "./lib/messages";
import { showOf } from "./lib/show";

const INSTALLED = "__verbatimContentScript";
const scope = globalThis as unknown as Record<string, boolean>;

function media(): HTMLMediaElement | null {
  const main = document.querySelector<HTMLVideoElement>("video.html5-main-video");
  if (main) return main;
  const all = [...document.querySelectorAll<HTMLMediaElement>("video, audio")];
  return all.find((element) => !element.paused) ?? all.find((element) => element.readyState > 0) ?? all[0] ?? null;
}

function httpSource(element: HTMLMediaElement | null): string | null {
  const source = element?.currentSrc || element?.src || "";
  return /^https?:\/\//i.test(source) && source.length <= 2048 ? source : null;
}

// YouTube's owner link beside the video (its app's markup, then the page's microdata, which single-page navigation
// leaves behind: last).
const CHANNEL_LINKS = [
  "ytd-watch-metadata ytd-video-owner-renderer a[href]",
  "#owner ytd-channel-name a[href]",
  "ytd-video-owner-renderer a[href]",
  "ytm-slim-owner-renderer a[href]",
  'span[itemprop="author"] link[itemprop="url"][href]',
];
const FEED_LINKS =
  'link[rel~="alternate"][type="application/rss+xml" i][href], link[rel~="alternate"][type="application/atom+xml" i][href]';

function show(): string | null {
  for (const selector of CHANNEL_LINKS) {
    const found = showOf(location.href, { channel: document.querySelector(selector)?.getAttribute("href") });
    if (found) return found;
  }
  return showOf(location.href, { feed: document.querySelector(FEED_LINKS)?.getAttribute("href") });
}

function state(): PlayerState {
  const element = media();
  const duration = element && Number.isFinite(element.duration) ? element.duration : null;
  return {
    type: "verbatim:state",
    url: location.href,
    media: httpSource(element),
    player: element !== null,
    time: element && Number.isFinite(element.currentTime) ? element.currentTime : 0,
    duration,
    paused: element ? element.paused : true,
    show: show(),
  };
}

let lastSent = 0;
let lastUrl = "";
let pending: ReturnType<typeof setTimeout> | null = null;

function send() {
  lastSent = Date.now();
  lastUrl = location.href;
  // No extension page open is no one listening: not an error.
  browserApi.runtime.sendMessage(state()).catch(() => undefined);
}

/** timeupdate comes about four times a second; a changed address or a seek is told at once. */
function onTick() {
  if (location.href !== lastUrl) return send();
  if (pending) return;
  const wait = Math.max(0, 200 - (Date.now() - lastSent));
  pending = setTimeout(() => {
    pending = null;
    send();
  }, wait);
}

function install() {
  // Media events do not bubble: listened to on their way down (capture), for whichever element plays.
  for (const type of ["timeupdate", "seeked"]) document.addEventListener(type, onTick, true);
  for (const type of ["play", "pause", "loadedmetadata", "durationchange", "emptied"])
    document.addEventListener(type, send, true);
  // YouTube's single-page navigation: a new video without a new page.
  document.addEventListener("yt-navigate-finish", send);
  window.addEventListener("popstate", send);
  browserApi.runtime.onMessage.addListener((message: unknown, sender: MessageSender, respond) => {
    if (sender.id !== browserApi.runtime.id) return;
    const request = parsePlayerRequest(message);
    if (!request) return;
    if (request.type === "verbatim:seek") {
      const element = media();
      if (element) element.currentTime = request.time;
    }
    respond(state());
  });
  send();
}

// Injected again on a click (scripting.executeScript) into a page that has it already: once is enough.
if (!scope[INSTALLED]) {
  scope[INSTALLED] = true;
  install();
}
