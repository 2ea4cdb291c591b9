import { readFile } from "node:fs/promises";
import path from "node:path";
import { getAbsoluteFSPath } from "swagger-ui-dist";
import { errorResponse, errors } from "@/lib/http/errors";

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: true });`;

// Only these files are served; the name is never joined to a path unchecked.
// A Map, not an object literal: "constructor", "toString" and the like must not look like file names.
const FILES = new Map<string, string>([
  ["swagger-ui.css", "text/css; charset=utf-8"],
  ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
]);

export async function serveDocsAsset(name: string): Promise<Response> {
  if (name === "init.js") {
    return new Response(INIT_SCRIPT, { headers: { "content-type": "text/javascript; charset=utf-8" } });
  }
  const type = FILES.get(name);
  if (!type) return errorResponse(errors.notFound("No such file."));
  const body = await readFile(path.join(getAbsoluteFSPath(), name));
  return new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
}
