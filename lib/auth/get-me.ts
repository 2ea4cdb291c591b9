import { getDb } from "@/lib/db/client";
import { errors } from "@/lib/http/errors";
import type { Principal } from "@/lib/auth/principal";
import type { Me } from "@/lib/auth/schemas";

/** GET /v1/me: who the credential belongs to (what `verbatim whoami` shows). */
export async function getMe(principal: Principal): Promise<Me> {
  const db = await getDb();
  const user = await db.user.findUnique({
    where: { id: principal.userId },
    select: { id: true, email: true, name: true, subscription: { select: { tier: true } } },
  });
  if (!user) throw errors.invalidToken();
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    tier: user.subscription?.tier ?? "free",
    via: principal.via,
  };
}
