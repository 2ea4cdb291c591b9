import { createMcpHandler } from "@/lib/mcp/handler";
import { podcastDeps } from "@/lib/podcasts/deps";
import { transcriptDeps } from "@/lib/transcripts/deps";

// The MCP endpoint (Streamable HTTP); everything happens in lib/mcp.
const handler = createMcpHandler({ deps: transcriptDeps, podcastDeps });

export const GET = handler;
export const POST = handler;
export const DELETE = handler;
