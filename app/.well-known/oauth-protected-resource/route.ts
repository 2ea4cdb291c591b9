import { protectedResourceMetadataResponse } from "@/lib/mcp/metadata-route";

export const GET = protectedResourceMetadataResponse;
