import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { env } from "@/lib/env";
import { getDb } from "@/lib/db/client";
import { authSecret } from "@/lib/auth/secret";

// The operator's way back in when sign-in links by e-mail are off (AUTH_EMAIL_SIGNIN=off) or no mail server is
// set: a one-time link made on the server (`npm run signin-link`), stored exactly as Auth.js stores an e-mail
// link's token (the SHA-256 of token and secret), so Auth.js's own e-mail callback checks, uses up and honours
// it. Whoever can run this has the server's shell and its database anyway.

/** How long an operator's link lasts: long enough to paste it, short enough not to linger in a scrollback. */
export const OPERATOR_LINK_MINUTES = 15;

/** A one-time sign-in link for `email` (made into an account at first use, as an e-mail link is). */
export async function makeSignInLink(email: string, now = new Date()): Promise<{ url: string; expires: Date }> {
  const parsed = z.email().max(254).safeParse(email.trim().toLowerCase());
  if (!parsed.success) throw new Error(`"${email}" is not an e-mail address`);
  const address = parsed.data;
  const token = randomBytes(32).toString("hex");
  const expires = new Date(now.getTime() + OPERATOR_LINK_MINUTES * 60_000);
  const db = await getDb();
  await db.verificationToken.create({
    data: {
      identifier: address,
      token: createHash("sha256").update(`${token}${authSecret()}`).digest("hex"),
      expires,
    },
  });
  const origin = new URL(env().APP_URL).origin;
  const query = new URLSearchParams({ callbackUrl: `${origin}/dashboard`, token, email: address });
  return { url: `${origin}/api/auth/callback/nodemailer?${query}`, expires };
}
