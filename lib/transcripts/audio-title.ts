/**
 * The title of a direct audio link until the file says better (its ID3/ffprobe `title` tag, read when
 * the job probes it): the file name from the URL's path, "lecture.mp3", decoded; null when the path
 * names no file.
 */
export function audioFileTitle(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const last = pathname
    .split("/")
    .filter((part) => part !== "")
    .pop();
  if (!last) return null;
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  const clean = name
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return clean === "" ? null : clean.slice(0, 200);
}
