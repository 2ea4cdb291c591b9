import type { Output } from "./output";

/** Opens `url` in the person's browser when there is one to open; false when it could not (the URL is shown anyway). */
export async function openBrowser(out: Output, url: string): Promise<boolean> {
  if (!out.interactive) return false;
  try {
    const { default: open } = await import("open");
    const child = await open(url, { wait: false });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
