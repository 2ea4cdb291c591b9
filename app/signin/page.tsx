import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth, enabledProviders } from "@/lib/auth/nextauth";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { SiteHeader } from "@/components/site/site-header";
import { signInWith } from "./actions";
import { controlClass } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const inputClass = `w-full ${controlClass}`;
const primaryButton = buttonClass("primary", "lg", "w-full");
const secondaryButton = buttonClass("secondary", "lg", "w-full font-medium");

/** The sentence for Auth.js's error type and our code (lib/auth/nextauth.ts), never the error's own text. */
function signInProblem(error: string, code: string | undefined): string {
  switch (code) {
    case "rate_limited":
      return "Too many sign-in attempts. Wait a few minutes and try again.";
    case "email_missing":
      return "Your identity provider did not give an e-mail address, which Verbatim needs for your account. Ask its administrator to release the email scope.";
    case "email_unverified":
      return "Your identity provider did not confirm that your e-mail address is verified, so no account is made or linked for it. Verify it there, then try again.";
    case "email_domain":
      return "Accounts with your e-mail address's domain cannot sign in here. Use your organisation's address, or ask this server's operator.";
    case "group":
      return "Your identity provider does not list you in any of the groups allowed to use Verbatim here, so no account is made or opened. Ask its administrator to add you to one.";
  }
  if (error === "Configuration")
    return "Sign-in did not complete: the answer from the sign-in service was refused (already used, expired, or not from the service this server trusts) or the service could not be reached. Start again from this page; if it fails again, this server's log says why.";
  if (error === "AccessDenied") return "Sign-in was refused.";
  return "Sign-in failed. Check the address and try again.";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  // Already signed in: straight on to where the visitor was going.
  const session = await auth();
  if (session?.user?.id) redirect(callbackUrl);

  // Not the development login where it would refuse this browser (another machine, or through a proxy).
  const providers = enabledProviders(await headers());
  const regular = providers.filter((provider) => provider.kind !== "dev");
  const dev = providers.find((provider) => provider.kind === "dev");
  const hidden = (id: string) => (
    <>
      <input type="hidden" name="provider" value={id} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
    </>
  );
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-sm flex-col gap-6 px-4 py-12 sm:px-6 sm:py-16">
        <h1 className="text-2xl font-semibold">Sign in to Verbatim</h1>
        {params.error && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {signInProblem(params.error, params.code)}
          </p>
        )}
        {providers.length === 0 && <p className="text-stone-600">No sign-in method is configured on this server.</p>}
        {regular.map((provider) => (
          <form key={provider.id} action={signInWith} className="flex flex-col gap-2">
            {hidden(provider.id)}
            {provider.kind === "email" && (
              <label className="flex flex-col gap-1 text-sm">
                <span>Email (we send you a sign-in link)</span>
                <input name="email" type="email" required autoComplete="email" className={inputClass} />
              </label>
            )}
            <button type="submit" className={provider.kind === "email" ? primaryButton : secondaryButton}>
              {provider.kind === "oauth" ? `Continue with ${provider.name}` : "Email me a link"}
            </button>
          </form>
        ))}
        {dev && (
          <div
            className="flex flex-col gap-3 rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4"
            data-testid="dev-login"
          >
            <div className="flex flex-col gap-1">
              <h2 className="flex items-center gap-2 text-sm font-semibold text-amber-900">
                <span className="rounded bg-amber-200 px-1.5 py-0.5 text-xs tracking-wide uppercase">
                  Development only
                </span>
                Development login
              </h2>
              <p className="text-xs text-amber-900">
                No password and no email check: whoever reaches this server can sign in as anyone. Meant for running
                Verbatim on your own machine.
              </p>
            </div>
            <form action={signInWith} className="flex flex-col gap-2">
              {hidden(dev.id)}
              <label className="flex flex-col gap-1 text-sm">
                <span>Email (development login, no password)</span>
                <input name="email" type="email" required autoComplete="email" className={inputClass} />
              </label>
              <button type="submit" className={secondaryButton}>
                Sign in (development)
              </button>
            </form>
          </div>
        )}
      </main>
    </div>
  );
}
