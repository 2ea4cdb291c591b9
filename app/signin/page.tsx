import type { Metadata } from "next";
import { enabledProviders } from "@/lib/auth/nextauth";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";
import { signInWith } from "./actions";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const inputClass = "w-full rounded-md border border-stone-300 bg-white px-3 py-2 focus:outline-none focus:ring-2 focus:ring-stone-400";
const buttonClass = "w-full rounded-md bg-stone-900 px-4 py-2 font-medium text-white hover:bg-stone-700";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  const providers = enabledProviders();
  return (
    <main className="mx-auto flex max-w-sm flex-col gap-6 px-6 py-24">
      <h1 className="text-2xl font-semibold">Sign in to Verbatim</h1>
      {params.error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {params.code === "rate_limited"
            ? "Too many sign-in attempts. Wait a few minutes and try again."
            : "Sign-in failed. Check the address and try again."}
        </p>
      )}
      {providers.length === 0 && <p className="text-stone-600">No sign-in method is configured on this server.</p>}
      {providers.map((provider) => (
        <form key={provider.id} action={signInWith} className="flex flex-col gap-2">
          <input type="hidden" name="provider" value={provider.id} />
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          {provider.kind !== "oauth" && (
            <label className="flex flex-col gap-1 text-sm">
              <span>{provider.kind === "dev" ? "Email (development login, no password)" : "Email (we send you a link)"}</span>
              <input name="email" type="email" required autoComplete="email" className={inputClass} />
            </label>
          )}
          <button type="submit" className={buttonClass}>
            {provider.kind === "oauth" ? `Continue with ${provider.name}` : provider.kind === "dev" ? "Sign in (development)" : "Email me a link"}
          </button>
        </form>
      ))}
    </main>
  );
}
