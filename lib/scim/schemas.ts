import { z } from "zod";

export const scimTokenStateSchema = z
  .object({
    exists: z.boolean(),
    token: z
      .string()
      .optional()
      .describe("The bearer token for the identity provider: returned only by the call that made it, never again"),
    token_prefix: z.string().nullable().describe("Its first characters, to tell it apart"),
    created_at: z.string().nullable(),
    last_used_at: z.string().nullable().describe("Updated at most once a minute"),
    base_url: z.string().describe("The SCIM 2.0 base URL to give the identity provider (Tenant URL in Entra ID)"),
  })
  .meta({ id: "ScimTokenState" });
export type ScimTokenState = z.infer<typeof scimTokenStateSchema>;
