// Builds the browser extension (extension/): its scripts bundled by esbuild, its pages and manifest (with the
// app's version) copied, its icons drawn from app/icon.svg, all into extension/dist, packed as
// extension/verbatim-extension.zip (what a person loads or submits to a store).
//
//   tsx scripts/build-extension.ts     (npm run build:extension)
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { zipSync } from "fflate";
import sharp from "sharp";

const root = path.resolve(import.meta.dirname, "..");
const source = path.join(root, "extension");
const dist = path.join(source, "dist");
export const ZIP = path.join(source, "verbatim-extension.zip");

export async function buildExtension(): Promise<{ zipBytes: number }> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: ["background", "content", "panel"].map((name) => path.join(source, "src", `${name}.ts`)),
    outdir: dist,
    bundle: true,
    format: "iife",
    target: ["chrome116", "firefox140"],
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  for (const file of readdirSync(path.join(source, "static")))
    writeFileSync(path.join(dist, file), readFileSync(path.join(source, "static", file)));
  const manifest = JSON.parse(readFileSync(path.join(dist, "manifest.json"), "utf8")) as { version: string };
  manifest.version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  writeFileSync(path.join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const icon = readFileSync(path.join(root, "app", "icon.svg"));
  for (const size of [16, 32, 48, 128])
    await sharp(icon, { density: 300 })
      .resize(size, size)
      .png()
      .toFile(path.join(dist, `icon-${size}.png`));
  const files: Record<string, Uint8Array> = {};
  for (const file of readdirSync(dist).sort())
    if (statSync(path.join(dist, file)).isFile()) files[file] = readFileSync(path.join(dist, file));
  const zip = zipSync(files, { level: 9, mtime: new Date("2026-01-01T00:00:00Z") });
  writeFileSync(ZIP, zip);
  return { zipBytes: zip.byteLength };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const { zipBytes } = await buildExtension();
  console.log(`extension: ${path.relative(root, dist)}, ${path.relative(root, ZIP)} (${zipBytes} bytes)`);
}
