import { errorResponse, errors } from "@/lib/http/errors";
import { protectedResourceMetadata } from "@/lib/mcp/metadata";

/** GET /.well-known/oauth-protected-resource/mcp: the MCP endpoint's metadata (RFC 9728), cacheable for an hour. */
export function protectedResourceMetadataResponse(): Response {
  return Response.json(protectedResourceMetadata(), {
    headers: { "cache-control": "public, max-age=3600", "access-control-allow-origin": "*" },
  });
}

/**
 * GET /.well-known/oauth-protected-resource (the root): 404. A document there would describe the origin
 * (RFC 9728 3.3: its `resource` must equal the URL it was fetched for), and the origin is not the
 * resource MCP clients want; they find /mcp's document from the 401's `resource_metadata` (or at the
 * path-suffixed URL, 3.1), so the root says nothing rather than something a strict client must refuse.
 */
export function rootProtectedResourceResponse(): Response {
  const response = errorResponse(
    errors.notFound(
      "No protected resource here; the MCP endpoint's metadata is at /.well-known/oauth-protected-resource/mcp.",
    ),
  );
  response.headers.set("access-control-allow-origin", "*");
  return response;
}
