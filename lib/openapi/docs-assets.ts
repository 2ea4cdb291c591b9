import { readFile } from "node:fs/promises";
import path from "node:path";
import { getAbsoluteFSPath } from "swagger-ui-dist";
import { errorResponse, errors } from "@/lib/http/errors";

// The reference shows the document without its x-internal operations (inbound webhooks). Deep links stay
// off: Swagger UI puts them as links inside the operations' buttons (nested interactive controls), and its
// server picker gets the accessible name it lacks.
const INIT_SCRIPT = `fetch("/openapi.json").then((response) => response.json()).then((spec) => {
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) if (operation["x-internal"]) delete operations[method];
    if (Object.keys(operations).length === 0) delete spec.paths[path];
  }
  spec.tags = (spec.tags || []).filter((tag) => Object.values(spec.paths).some((ops) => Object.values(ops).some((op) => (op.tags || []).includes(tag.name))));
  window.ui = SwaggerUIBundle({
    spec,
    dom_id: "#swagger-ui",
    deepLinking: false,
    persistAuthorization: true,
  });
  // Swagger UI renders the server picker (and re-renders it) after load: name it whenever it appears.
  const nameServers = () => document.getElementById("servers")?.setAttribute("aria-label", "Server");
  new MutationObserver(nameServers).observe(document.getElementById("swagger-ui"), { childList: true, subtree: true });
  nameServers();
});`;

// Swagger UI's own colours that fall short of WCAG AA contrast (version badges, Authorize, the method badges, the
// info block's links such as the license: #4990e2 on white is 3.3:1).
const DOCS_CSS = `.swagger-ui .info .title small pre, .swagger-ui .info .title small.version-stamp pre { color: #fff; }
.swagger-ui .info .title small { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #166534; }
.swagger-ui .btn.authorize { color: #166534; border-color: #166534; }
.swagger-ui .btn.authorize svg { fill: #166534; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d4ed8 !important; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #047857 !important; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #b45309 !important; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f766e !important; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c !important; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #374151 !important; }
.swagger-ui .info a.link, .swagger-ui .info a { color: #1d4ed8; }
.docs-back { font: 14px system-ui, sans-serif; padding: 12px 20px; border-bottom: 1px solid #e7e5e4; }
.docs-back a { color: #1c1917; }
/* Dark: the page is dark and Swagger UI (on a white ground, so its own colours keep their contrast for
   checkers that read computed styles) is inverted, hues turned back; images and the player are turned back too. */
@media (prefers-color-scheme: dark) {
  html { background: #1c1917; color-scheme: dark; }
  .docs-back { border-color: #44403c; color: #e7e5e4; }
  .docs-back a { color: #f5f5f4; }
  /* Light inside, or its buttons and fields take the browser's dark system colours before being inverted. */
  .swagger-ui { background: #fff; color-scheme: light; filter: invert(0.9) hue-rotate(180deg); }
  .swagger-ui img, .swagger-ui video { filter: invert(1) hue-rotate(180deg); }
}
`;

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
  if (name === "docs.css") {
    return new Response(DOCS_CSS, { headers: { "content-type": "text/css; charset=utf-8" } });
  }
  const type = FILES.get(name);
  if (!type) return errorResponse(errors.notFound("No such file."));
  const body = await readFile(path.join(getAbsoluteFSPath(), name));
  return new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
}
