import { DOCS_POLICY } from "@/lib/http/security-headers";

// The interactive API reference: Swagger UI from the swagger-ui-dist package, served by us (no CDN),
// under its own Content-Security-Policy (no inline script; Swagger UI's inline styles allowed).
export const dynamic = "force-static";

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>API reference · Verbatim</title>
  <link rel="icon" href="/icon.svg" type="image/svg+xml" />
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  <link rel="stylesheet" href="/docs/assets/docs.css" />
</head>
<body>
  <nav class="docs-back" aria-label="Site"><a href="/dashboard">← Verbatim dashboard</a> · <a href="/dashboard/keys">Your API key</a></nav>
  <main id="swagger-ui"></main>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;

export function GET() {
  return new Response(page, {
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_POLICY },
  });
}
