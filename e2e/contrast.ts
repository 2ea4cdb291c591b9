import type AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

// Colour contrast as e2e/all-pages.spec.ts checks it in both schemes: axe's
// color-contrast violations, and what axe could only flag for review ("incomplete": a glyph, a background
// image, an overlap, white on white) measured from the computed colours instead, never skipped.

/**
 * The contrast of an element's text against what is behind it, from computed styles: its colour over the
 * stack of ancestor background colours (images ignored), faded by ancestor opacity. Colours go through a
 * canvas, so any CSS colour (Tailwind's oklch included) comes back as sRGB bytes.
 */
async function measuredContrast(page: Page, selector: string): Promise<{ ratio: number; large: boolean } | null> {
  return page.evaluate((selector) => {
    const element = document.querySelector(selector);
    if (!element) return null;
    const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const rgba = (color: string): [number, number, number, number] => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], bottom: number[]) =>
      top.slice(0, 3).map((c, i) => c * top[3] + bottom[i] * (1 - top[3]));
    const layers: [number, number, number, number][] = [];
    let opacity = 1;
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      opacity *= Number(style.opacity);
      const background = rgba(style.backgroundColor);
      if (background[3] > 0) layers.push(background);
      if (background[3] >= 1) break;
    }
    let behind = [255, 255, 255];
    for (const layer of layers.reverse()) behind = over(layer, behind);
    const text = rgba(getComputedStyle(element).color);
    const seen = over([...text.slice(0, 3), text[3] * opacity], behind);
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(seen), luminance(behind)].sort((a, b) => b - a);
    const style = getComputedStyle(element);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    return { ratio: (light + 0.05) / (dark + 0.05), large };
  }, selector);
}

/** Every contrast problem of one scan (which must have run the color-contrast rule), as lines naming `where`. */
export async function contrastProblems(page: Page, where: string, scan: AxeResults): Promise<string[]> {
  const problems: string[] = [];
  const contrast = (results: AxeResults["violations"]) => results.filter((result) => result.id === "color-contrast");
  for (const node of contrast(scan.violations).flatMap((result) => result.nodes))
    problems.push(`${where}: ${node.target.join(" ")}: ${node.failureSummary}`);
  for (const node of contrast(scan.incomplete).flatMap((result) => result.nodes)) {
    const reason = node.any.map((check) => check.message).join("; ");
    const selector = node.target.length === 1 ? String(node.target[0]) : null;
    const measured = selector ? await measuredContrast(page, selector) : null;
    if (!measured) {
      problems.push(`${where}: ${node.target.join(" ")}: not measurable (${reason})`);
      continue;
    }
    // Glyphs and icons are non-text contrast (WCAG 1.4.11, 3:1); text needs 4.5:1 (3:1 when large).
    const glyph = /non-text characters/.test(reason);
    const needed = glyph || measured.large ? 3 : 4.5;
    if (measured.ratio < needed)
      problems.push(`${where}: ${selector}: contrast ${measured.ratio.toFixed(2)} (needs ${needed}; axe: ${reason})`);
  }
  return problems;
}

/**
 * Switches a loaded page to the dark scheme, live (the pages follow the system setting without a reload), and waits
 * for the colour transitions the switch starts (never the endless animations, a spinner's). False when the page's
 * background did not change: a page that reads the scheme once, at load (the API reference's), must be loaded again.
 */
export async function toDarkScheme(page: Page): Promise<boolean> {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        // A transition cancelled meanwhile (another replaced it) rejects: it has ended all the same.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return (await background()) !== light;
}
