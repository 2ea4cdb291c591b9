import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ResolveDeps as PodcastDeps } from "@/lib/podcasts/resolve-podcast";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import type { Principal } from "@/lib/auth/principal";

export interface ToolContext {
  /** The account acted in (a person's own, or a team's). */
  userId: string;
  /** Who is calling, in which role: each tool needs its REST operation's role, and the team's trail names them. */
  principal: Principal;
  /** The HTTP request the call came in (per-address rate limits use its client address). */
  request: Request;
  deps: TranscriptDeps;
  podcastDeps: PodcastDeps;
  /** How long get_transcript waits for a speech-recognition job before answering with the job id. */
  waitMs: number;
  /** How often it looks at the job meanwhile. */
  pollMs: number;
}

/** How each tool file registers its tool: the server's registerTool, behind the storable-text check. */
export type RegisterTool = McpServer["registerTool"];
