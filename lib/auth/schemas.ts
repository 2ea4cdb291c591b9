import { z } from "zod";
import { TEAM_ROLES } from "@/lib/roles/ladder";
import { tierSchema } from "@/lib/usage/schemas";

export const apiKeyStateSchema = z
  .object({
    has_key: z.boolean().describe("false if the user has no key yet"),
    key_prefix: z.string().nullable().describe("masked prefix only, never plaintext"),
    tier: tierSchema.describe("the caller's live tier"),
    created_at: z.string().nullable(),
    last_used_at: z
      .string()
      .nullable()
      .describe("when the key last authenticated a request (to the minute); null if never"),
    key: z.string().nullable().describe("plaintext key, only in the response that creates or regenerates it"),
  })
  .meta({ id: "ApiKeyState" });

export const sessionsEndedSchema = z
  .object({ ended: z.number().int().nonnegative().describe("how many sessions were ended") })
  .meta({ id: "SessionsEnded" });

export const workspaceSchema = z
  .object({
    id: z.string().describe("the account acted in: the person's own id, or a team's"),
    kind: z.enum(["person", "team"]),
    name: z.string().nullable(),
    slug: z.string().nullable().describe("a team's short name; null for a person's own account"),
    role: z.enum(TEAM_ROLES).describe("the caller's role in it (a person owns their own)"),
  })
  .meta({ id: "Workspace" });

export const meSchema = z
  .object({
    id: z.string().describe("the person (a team's API key: the team)"),
    email: z.string().nullable(),
    name: z.string().nullable(),
    tier: tierSchema.describe("the caller's live tier (the workspace's plan)"),
    via: z.enum(["session", "api_key", "oauth"]).describe("the credential this request was authenticated with"),
    workspace: workspaceSchema.describe(
      "where this credential acts: the person's own account, or a team (a session's choice, a key's owner, a grant's consent)",
    ),
  })
  .meta({ id: "Me" });

export const chooseWorkspaceSchema = z
  .object({
    workspace_id: z
      .string()
      .max(64)
      .nullable()
      .describe("a team you are a member of, or null (or your own id) for your own account"),
  })
  .strict()
  .meta({ id: "ChooseWorkspace" });

export type WorkspaceView = z.infer<typeof workspaceSchema>;

export type Me = z.infer<typeof meSchema>;
