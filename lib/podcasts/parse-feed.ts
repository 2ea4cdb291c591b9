import { decodeXML } from "entities";
import { storableText } from "@/lib/db/storable-text";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { normalizeDuration } from "@/lib/podcasts/duration";
import { FEED_BOUNDS, feedBoundsProblem } from "@/lib/podcasts/feed-bounds";

// RSS 2.0 (with the iTunes and Podcasting 2.0 namespaces) and Atom feeds → show title and episodes.
// Parsed by fast-xml-parser with entity processing OFF: a DOCTYPE's entities are never read or expanded,
// so a billion-laughs feed stays a few kilobytes and an external entity (XXE) is never fetched. Text is
// then decoded with `entities`' decodeXML, which knows only XML's five named entities and numeric
// references, so `&xxe;` stays the literal text it is; what they decode to is made storable (`&#0;` → U+FFFD,
// lib/db/storable-text.ts). Before either runs, the text is held to FEED_BOUNDS
// (elements, attributes, depth, text lengths: feed-bounds.ts). Pure: no I/O; the app runs it in a worker
// thread (parse-off-thread.ts).

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeedParseError";
  }
}

export interface FeedTranscript {
  url: string;
  /** The declared media type, e.g. text/vtt, application/x-subrip, application/json, text/html. */
  type: string;
  language: string | null;
}

export interface FeedEpisode {
  guid: string;
  title: string;
  audioUrl: string;
  /** ISO 8601, or null when the feed gives no readable date. */
  published: string | null;
  /** HH:MM:SS (see duration.ts), or null. */
  duration: string | null;
  /** The audio file's size in bytes as the enclosure's `length` gives it, or null where it gives none (or 0). */
  bytes?: number | null;
  transcripts: FeedTranscript[];
}

export interface ParsedFeed {
  format: "rss" | "atom";
  title: string;
  episodes: FeedEpisode[];
  /** The WebSub hub the feed names (`<atom:link rel="hub">`, Atom's `<link rel="hub">`), or null. */
  hub: string | null;
  /** The feed's own URL as it names it (`rel="self"`): a WebSub topic. */
  self: string | null;
}

const ARRAYS = new Set([
  "item",
  "entry",
  "link",
  "atom:link",
  "atom10:link",
  "enclosure",
  "podcast:transcript",
  "media:content",
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  cdataPropName: "#cdata",
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => ARRAYS.has(name),
  maxNestedTags: FEED_BOUNDS.maxDepth,
});

type Node = Record<string, unknown>;

/** Parses a feed's text. Throws FeedParseError (with a line number where there is one) for anything else. */
export function parseFeed(xml: string): ParsedFeed {
  const text = xml.replace(/^\uFEFF/, "").trimStart(); // a leading blank line is common, and harmless
  const problem = feedBoundsProblem(text);
  if (problem) throw new FeedParseError(`${problem} That is more than a podcast feed needs; it was not read.`);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) {
    throw new FeedParseError(
      storableText(
        `The feed is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg})`,
      ),
    );
  }
  let doc: Node;
  try {
    doc = parser.parse(text) as Node;
  } catch (error) {
    throw new FeedParseError(`The feed could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const rss = asNode(doc.rss) ?? asNode(doc["rdf:RDF"]);
  if (rss) {
    const channel = asNode(rss.channel);
    if (!channel) throw new FeedParseError("The feed has no <channel>.");
    const items = [...asArray(channel.item), ...asArray(rss.item)];
    // FeedBurner writes the Atom namespace as `atom10:`.
    const links = [...asArray(channel["atom:link"]), ...asArray(channel["atom10:link"])];
    return {
      format: "rss",
      title: textOf(channel.title) || "Untitled",
      episodes: items.map(asNode).flatMap((item) => (item ? rssEpisode(item) : [])),
      hub: linkHref(links, "hub"),
      self: linkHref(links, "self"),
    };
  }
  const feed = asNode(doc.feed);
  if (feed) {
    return {
      format: "atom",
      title: textOf(feed.title) || "Untitled",
      episodes: asArray(feed.entry)
        .map(asNode)
        .flatMap((entry) => (entry ? atomEpisode(entry) : [])),
      hub: linkHref(asArray(feed.link), "hub"),
      self: linkHref(asArray(feed.link), "self"),
    };
  }
  throw new FeedParseError("This is XML, but not an RSS or Atom feed.");
}

function rssEpisode(item: Node): FeedEpisode[] {
  const enclosure = asArray(item.enclosure)
    .map(asNode)
    .find((e) => e && attr(e, "url"));
  const media = asArray(item["media:content"])
    .map(asNode)
    .find((e) => e && attr(e, "url") && /^(audio|video)\//.test(attr(e, "type")));
  const audioUrl = attr(enclosure ?? media ?? {}, "url");
  if (!audioUrl) return [];
  return [
    {
      guid: textOf(item.guid) || audioUrl,
      title: textOf(item.title) || textOf(item["itunes:title"]) || "Untitled",
      audioUrl,
      published: isoDate(textOf(item.pubDate) || textOf(item["dc:date"])),
      duration: normalizeDuration(textOf(item["itunes:duration"])),
      bytes: enclosureBytes(enclosure ? attr(enclosure, "length") : attr(media ?? {}, "fileSize")),
      transcripts: asArray(item["podcast:transcript"]).flatMap((t) => {
        const node = asNode(t);
        const url = node ? attr(node, "url") : "";
        return node && url
          ? [{ url, type: attr(node, "type").toLowerCase(), language: attr(node, "language") || null }]
          : [];
      }),
    },
  ];
}

function atomEpisode(entry: Node): FeedEpisode[] {
  const links = asArray(entry.link)
    .map(asNode)
    .filter((l): l is Node => l !== null);
  const enclosure = links.find((l) => attr(l, "rel") === "enclosure" && attr(l, "href"));
  if (!enclosure) return [];
  const audioUrl = attr(enclosure, "href");
  return [
    {
      guid: textOf(entry.id) || audioUrl,
      title: textOf(entry.title) || "Untitled",
      audioUrl,
      published: isoDate(textOf(entry.published) || textOf(entry.updated)),
      duration: null,
      bytes: enclosureBytes(attr(enclosure, "length")),
      transcripts: [],
    },
  ];
}

/** A positive whole number of bytes, or null: what an enclosure's `length` says when it says anything. */
function enclosureBytes(value: string): number | null {
  if (!/^\s*\d{1,15}\s*$/.test(value)) return null;
  const bytes = Number(value);
  return bytes > 0 ? bytes : null;
}

/** The first absolute http(s) `href` of the links with this `rel`. */
function linkHref(links: readonly unknown[], rel: string): string | null {
  for (const link of links) {
    const node = asNode(link);
    if (!node || !attr(node, "rel").toLowerCase().split(/\s+/).includes(rel)) continue;
    const href = attr(node, "href");
    if (/^https?:\/\//i.test(href) && href.length <= 2048) return href;
  }
  return null;
}

function asNode(value: unknown): Node | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Node) : null;
}

function asArray(value: unknown): unknown[] {
  return value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
}

/** An element's text: entity references decoded in text, CDATA kept as written; nested markup ignored. */
function textOf(value: unknown): string {
  if (typeof value === "string") return storableText(decodeXML(value)).trim();
  if (Array.isArray(value)) return textOf(value[0]);
  const node = asNode(value);
  if (!node) return "";
  const parts = [
    typeof node["#text"] === "string" ? decodeXML(node["#text"]) : "",
    ...asArray(node["#cdata"]).map((c) => (typeof c === "string" ? c : "")),
  ];
  return storableText(parts.join("")).trim();
}

function attr(node: Node, name: string): string {
  const value = node[`@_${name}`];
  return typeof value === "string" ? storableText(decodeXML(value)).trim() : "";
}

function isoDate(text: string): string | null {
  if (!text) return null;
  // RFC 822 dates with US zone names Date.parse does not know (PST and friends are known; others are not).
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
