import { protectedResourceMetadata } from "@/lib/mcp/metadata";

/** GET /.well-known/oauth-protected-resource[/mcp]: the MCP endpoint's metadata (RFC 9728), cacheable for an hour. */
export function protectedResourceMetadataResponse(): Response {
  return Response.json(protectedResourceMetadata(), {
    headers: { "cache-control": "public, max-age=3600", "access-control-allow-origin": "*" },
  });
}
