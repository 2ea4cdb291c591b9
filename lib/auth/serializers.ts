import type { ApiKey, Tier } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import type { apiKeyStateSchema } from "@/lib/auth/schemas";

export type ApiKeyState = z.infer<typeof apiKeyStateSchema>;

export function serializeApiKeyState(key: ApiKey | null, tier: Tier, plaintext?: string): ApiKeyState {
  return {
    has_key: key !== null,
    key_prefix: key?.prefix ?? null,
    tier,
    created_at: key?.createdAt.toISOString() ?? null,
    last_used_at: key?.lastUsedAt?.toISOString() ?? null,
    key: plaintext ?? null,
  };
}
