// The platforms a source can be on: its own module so that the CLI's bundle can list them without the parser.
export const PLATFORMS = [
  "youtube",
  "x",
  "tiktok",
  "facebook",
  "instagram",
  "rednote",
  "vimeo",
  "upload",
  "podcast",
] as const;
export type Platform = (typeof PLATFORMS)[number];
