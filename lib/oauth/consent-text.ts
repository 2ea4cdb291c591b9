import { PERMISSIONS, type Permission } from "@/lib/http/permissions";

// What the consent page tells the person a connector will be able to do, and not do. The "cannot" list
// is read from the permission table (lib/http/permissions.ts), so the page cannot promise more than the
// API enforces.

/** What a connector's token may do (the `use` row, in words). */
export const CONNECTOR_CAN = [
  "see your account's email, name and plan, and your usage this period",
  "create transcripts as you, from your monthly allowance (links, audio URLs, uploads, podcast feeds and imports)",
  "read, download and delete the transcripts in your history",
  "publish your transcripts on public pages and unpublish them",
];

const CANNOT: Record<Exclude<Permission, "use" | "mcp">, string> = {
  api_keys: "create, see or replace your API key",
  sessions: "sign you out of your browsers",
  connections: "see or disconnect your other connected apps",
  billing: "start, change, cancel or resume a paid plan, or open your billing portal",
  webhooks: "add, see or change your webhook endpoints and their secrets",
  destinations: "add, see or remove the folders and Notion databases your transcripts are exported to",
  batches: "start a batch of many links at once, or retry one (it may read your batches and their results)",
  grants: "approve other apps or device logins",
  teams: "create, manage or join teams",
  workspace: "switch the workspace your dashboard acts in",
};

/** Every row of the table a connector's token is refused, in words. */
export function connectorCannot(): string[] {
  return (Object.keys(CANNOT) as (keyof typeof CANNOT)[])
    .filter((row) => !(PERMISSIONS[row] as readonly string[]).includes("oauth_app"))
    .map((row) => CANNOT[row]);
}
