import { z } from "zod";
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

export const meSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    tier: tierSchema.describe("the caller's live tier"),
    via: z.enum(["session", "api_key", "oauth"]).describe("the credential this request was authenticated with"),
  })
  .meta({ id: "Me" });

export type Me = z.infer<typeof meSchema>;
