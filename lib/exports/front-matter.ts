import { Document } from "yaml";

/** A note's properties, in the order they are written; null or empty values are left out. */
export interface NoteProperties {
  title: string;
  source: string;
  /** The channel (video platforms) or the show (podcasts). */
  channel: { key: "channel" | "show"; name: string } | null;
  /** Calendar dates (UTC): the day the source was published, the day it was transcribed. */
  published: Date | null;
  transcribed: Date | null;
  /** `h:mm:ss` or `m:ss`, and the same in seconds for queries. */
  duration: string;
  durationSeconds: number;
  language: string;
  speakers: readonly string[];
  tags: readonly string[];
  platform: string;
  id: string;
  /** The transcript in the viewer on this server. */
  verbatimUrl: string;
}

/**
 * The YAML front matter block (`---` … `---`) that notes apps read as a note's properties. Written as YAML 1.1,
 * which quotes every string a 1.1 reader would take for something else (`yes`, `no`, `on`, `~`, a date, a number):
 * Obsidian, Logseq and most static-site tools still read front matter with 1.1 rules, and what is safe there is the
 * same text under 1.2. Dates are written as plain `YYYY-MM-DD` so that they are read as dates.
 */
export function frontMatter(properties: NoteProperties): string {
  const fields: Record<string, unknown> = {
    title: properties.title,
    source: properties.source,
    ...(properties.channel ? { [properties.channel.key]: properties.channel.name } : {}),
    ...(properties.published ? { published: utcDay(properties.published) } : {}),
    ...(properties.transcribed ? { transcribed: utcDay(properties.transcribed) } : {}),
    duration: properties.duration,
    duration_seconds: properties.durationSeconds,
    language: properties.language,
    ...(properties.speakers.length > 0 ? { speakers: [...properties.speakers] } : {}),
    tags: [...properties.tags],
    platform: properties.platform,
    verbatim_id: properties.id,
    verbatim_url: properties.verbatimUrl,
  };
  const yaml = new Document(fields, { version: "1.1" }).toString({ lineWidth: 0 });
  return `---\n${yaml}---\n`;
}

/** Midnight UTC of the date's UTC day: YAML 1.1 writes such a date as `YYYY-MM-DD` alone. */
function utcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}
