import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import { PrismaAdapter } from "@auth/prisma-adapter";
import type { Adapter } from "next-auth/adapters";
import type { Provider } from "next-auth/providers";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import Credentials from "next-auth/providers/credentials";
import Nodemailer from "next-auth/providers/nodemailer";
import { z } from "zod";
import { env } from "@/lib/env";
import { getDb, type Db } from "@/lib/db/client";
import { authSecret } from "@/lib/auth/secret";
import { safeCallbackUrl } from "@/lib/auth/safe-redirect";
import {
  cameThroughProvider,
  endSession,
  SESSION_MAX_AGE_SECONDS,
  startSession,
  touchSession,
} from "@/lib/auth/sessions";
import { joinByVerifiedDomain } from "@/lib/membership/domain-join";
import { ApiError } from "@/lib/http/errors";
import { limitSignIn } from "@/lib/http/rate-limits";
import { devLoginRefused } from "@/lib/auth/dev-login";
import { log } from "@/lib/observability/logger";
import { applyTeamRoles, OIDC_PROVIDER, oidcConfigured, oidcProvider } from "@/lib/auth/oidc";
import { claimedEmail, mergedClaims, oidcRefusal } from "@/lib/auth/oidc-claims";
import { oidcAllowedDomains, oidcTeamRoleRules } from "@/lib/auth/oidc-settings";

// Dashboard sign-in. Sessions are JWTs (the development login is a Credentials provider, which
// Auth.js only supports with JWT sessions); users, accounts and magic-link tokens live in Prisma.

const emailSchema = z.email().max(254);

export const DEV_LOGIN_PROVIDER = "dev-login";
const EMAIL_PROVIDER = "nodemailer";

export type ProviderKind = "oauth" | "email" | "dev";

/**
 * Which sign-in methods this deployment offers, from its settings; given a request's headers (the sign-in
 * page), only those that request may use: not the development login where it would refuse it.
 */
export function enabledProviders(headers?: Pick<Headers, "get">): { id: string; name: string; kind: ProviderKind }[] {
  const settings = env();
  const list: { id: string; name: string; kind: ProviderKind }[] = [];
  if (oidcConfigured(settings)) list.push({ id: OIDC_PROVIDER, name: settings.OIDC_NAME, kind: "oauth" });
  if (settings.AUTH_GITHUB_ID && settings.AUTH_GITHUB_SECRET)
    list.push({ id: "github", name: "GitHub", kind: "oauth" });
  if (settings.AUTH_GOOGLE_ID && settings.AUTH_GOOGLE_SECRET)
    list.push({ id: "google", name: "Google", kind: "oauth" });
  if (emailSignInOffered()) list.push({ id: EMAIL_PROVIDER, name: "Email", kind: "email" });
  if (settings.devLogin && !(headers && devLoginRefused(settings, headers)))
    list.push({ id: DEV_LOGIN_PROVIDER, name: "Development login", kind: "dev" });
  return list;
}

/**
 * Whether anyone may ask for a sign-in link by e-mail. Without SMTP the link is printed to the server log, which
 * only the embedded defaults allow; AUTH_EMAIL_SIGNIN=off turns it off (the provider stays registered so that a
 * link made on the server by `npm run signin-link` still signs in).
 */
function emailSignInOffered(): boolean {
  const settings = env();
  return settings.AUTH_EMAIL_SIGNIN !== false && Boolean(settings.SMTP_URL || settings.embedded);
}

/** Too many sign-in attempts or magic-link mails: Auth.js sends the browser to /signin?error=…&code=rate_limited. */
export class SignInRateLimited extends CredentialsSignin {
  code = "rate_limited";
}

/** Counts a sign-in attempt or magic-link mail by address and by email (lib/http/rate-limits.ts). */
async function guardSignIn(kind: "signIn" | "magicLink", request: Request | undefined, email: string) {
  try {
    await limitSignIn(kind, request, email);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) throw new SignInRateLimited();
    throw error;
  }
}

function buildProvider(id: string, db: Db): Provider {
  const settings = env();
  switch (id) {
    case "github":
      return GitHub({ clientId: settings.AUTH_GITHUB_ID, clientSecret: settings.AUTH_GITHUB_SECRET });
    case "google":
      return Google({ clientId: settings.AUTH_GOOGLE_ID, clientSecret: settings.AUTH_GOOGLE_SECRET });
    case OIDC_PROVIDER:
      return oidcProvider(settings);
    case EMAIL_PROVIDER: {
      const smtp = Nodemailer({ server: settings.SMTP_URL ?? "smtp://localhost:25", from: settings.EMAIL_FROM });
      return Nodemailer({
        server: settings.SMTP_URL ?? "smtp://localhost:25",
        from: settings.EMAIL_FROM,
        sendVerificationRequest: (params) => {
          const sending = (async () => {
            if (!emailSignInOffered()) throw new Error("sign-in links by e-mail are off");
            await guardSignIn("magicLink", params.request, params.identifier);
            // Without SMTP (embedded only) the link goes to the server log.
            if (settings.SMTP_URL) return smtp.sendVerificationRequest(params);
            log.info({ email: params.identifier, url: params.url }, "sign-in link");
          })();
          // Auth.js awaits this only after hashing the token; a refusal before then would be reported as an
          // unhandled rejection. Marked handled here; Auth.js still receives the rejection.
          sending.catch(() => undefined);
          return sending;
        },
      });
    }
    default:
      return Credentials({
        id: DEV_LOGIN_PROVIDER,
        name: "Development login",
        credentials: { email: { label: "Email", type: "email" } },
        async authorize(credentials, request) {
          const email = emailSchema.safeParse(
            String(credentials?.email ?? "")
              .trim()
              .toLowerCase(),
          );
          if (!email.success) return null;
          if (request && devLoginRefused(settings, request.headers)) {
            log.warn("development login refused: not from a person at this machine (another machine, or a proxy)");
            return null;
          }
          await guardSignIn("signIn", request, email.data);
          const user = await db.user.upsert({
            where: { email: email.data },
            create: { email: email.data, name: email.data.split("@")[0] },
            update: {},
          });
          return { id: user.id, email: user.email, name: user.name };
        },
      });
  }
}

/**
 * The e-mail a sign-in has just proved the person holds, or null: the identity provider's (the signIn callback let
 * it through only verified), or the one an e-mail link was sent to. The development login proves nothing, and
 * GitHub's and Google's profiles are not read for it.
 */
function provedEmail(method: string | null, email: string | null | undefined, profile: unknown, idToken: unknown) {
  if (method === OIDC_PROVIDER) return claimedEmail(mergedClaims(profile, idToken));
  if (method === EMAIL_PROVIDER) return email?.toLowerCase() ?? null;
  return null;
}

/**
 * Every URL Auth.js builds (magic links, OAuth callbacks, its redirects, the server actions' endpoints)
 * comes from APP_URL, never from the request: Auth.js reads AUTH_URL from process.env for exactly that
 * (next-auth's reqWithEnvURL rewrites the request's origin to it; createActionURL uses it instead of
 * X-Forwarded-Host/-Proto). It is derived here, so APP_URL stays the one setting and a client-sent
 * `X-Forwarded-Proto: https` or `X-Forwarded-Host` cannot change a link.
 */
function pinAuthUrl(appUrl: string) {
  process.env.AUTH_URL = new URL(appUrl).origin;
}

async function config(): Promise<NextAuthConfig> {
  const db = await getDb();
  pinAuthUrl(env().APP_URL);
  return {
    adapter: PrismaAdapter(db as never) as Adapter,
    providers: [...new Set([...enabledProviders().map((provider) => provider.id), EMAIL_PROVIDER])].map((id) =>
      buildProvider(id, db),
    ),
    secret: authSecret(),
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    events: {
      async signOut(message) {
        if ("token" in message) await endSession(message.token?.sid);
      },
    },
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    callbacks: {
      // Asking for an e-mail link only where the page offers it; through the identity provider, only a verified
      // e-mail in an allowed domain, of a person in an allowed group (oidc-claims.ts), which is also what makes linking
      // by e-mail safe.
      signIn({ account, profile, email }) {
        if (email?.verificationRequest) return emailSignInOffered();
        if (account?.provider !== OIDC_PROVIDER) return true;
        const settings = env();
        const refusal = oidcRefusal(mergedClaims(profile, account.id_token), oidcAllowedDomains(settings), {
          groups: settings.OIDC_ALLOWED_GROUPS,
          claim: settings.OIDC_ROLES_CLAIM,
        });
        if (!refusal) return true;
        log.warn({ refusal, sub: account.providerAccountId }, "sign-in through the identity provider refused");
        return `/signin?${new URLSearchParams({ error: "AccessDenied", code: refusal })}`;
      },
      // Where to go after sign-in (and sign-out): the one safe-redirect rule, on APP_URL's origin, because
      // the host Next.js reports to route handlers can differ from the one the browser used.
      redirect({ url }) {
        return safeCallbackUrl(url);
      },
      // Sign-in starts a session row; afterwards the token is only good while its row exists (sessions.ts).
      // Returning null ends the session: auth() answers null and Auth.js clears the cookie.
      async jwt({ token, user, account, profile }) {
        if (user?.id) {
          const method = account?.provider ?? null;
          const proved = provedEmail(method, user.email, profile, account?.id_token);
          // The provider's groups decide team roles on every sign-in through it, before the session starts.
          if (method === OIDC_PROVIDER) await applyTeamRoles(user.id, mergedClaims(profile, account?.id_token), env());
          const mapped = oidcTeamRoleRules(env()).map((rule) => rule.team);
          if (proved) await joinByVerifiedDomain(user.id, proved, mapped);
          token.sub = user.id;
          token.sid = await startSession(user.id, method);
          token.method = method;
          return token;
        }
        return (await touchSession(token.sid, token.sub)) ? token : null;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        // Read by the dashboard's pages: a team that requires the provider is not opened by another session.
        return Object.assign(session, { viaProvider: cameThroughProvider(token.method as string | undefined) });
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);
