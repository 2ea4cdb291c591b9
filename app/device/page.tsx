import type { Metadata } from "next";
import { headers } from "next/headers";
import { findPendingDevice } from "@/lib/oauth/device-decide";
import { pagePath, requireSignedIn } from "@/lib/oauth/sign-in-gate";
import { rateLimits } from "@/lib/http/rate-limits";
import { clientAddress } from "@/lib/http/client-address";
import { ApiError } from "@/lib/http/errors";
import { DeviceDecision } from "@/components/oauth/decision-buttons";
import { SiteHeader } from "@/components/site/site-header";
import { controlClass } from "@/components/ui/field";
import { buttonClass } from "@/components/ui/button";
import { formatDateTime } from "@/lib/browser/dates";
import { grantWorkspaces } from "@/lib/auth/dashboard-workspace";

export const metadata: Metadata = { title: "Sign in a device" };
export const dynamic = "force-dynamic";

const inputClass = `w-full font-mono tracking-widest uppercase ${controlClass}`;

// The device flow's verification page (RFC 8628 3.3): sign in if needed (and come back), enter or
// confirm the code the program shows, see which program asks and from where, then approve or deny.
export default async function DevicePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const user = await requireSignedIn(pagePath("/device", params));
  const typed = typeof params.user_code === "string" ? params.user_code.slice(0, 64) : "";

  let pending = null;
  let problem: string | null = null;
  if (typed) {
    try {
      // Looking a code up counts like entering it: per user and per address (no guessing oracle).
      const limits = await rateLimits();
      await limits.consume("deviceVerify", `user:${user.id}`);
      await limits.consume("deviceVerifyAddress", `ip:${clientAddress(await headers())}`);
      pending = await findPendingDevice(typed);
      if (!pending)
        problem = "No pending request has this code. Check it, or start again on the device (codes last 15 minutes).";
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error.detail;
    }
  }

  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-6 py-24">
        <h1 className="text-2xl font-semibold">Sign in a device</h1>
        <p className="text-sm text-stone-600">Signed in as {user.email ?? "you"}.</p>
        {pending ? (
          <section aria-label="Device request" className="flex flex-col gap-4">
            <p>
              A program wants to use Verbatim as you, with the same access as your API key (create transcripts from your
              allowance, read your history, publish).
            </p>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-stone-500">Code</dt>
              <dd className="font-mono" data-testid="device-user-code">
                {pending.userCode}
              </dd>
              <dt className="text-stone-500">Program</dt>
              <dd data-testid="device-client">{pending.client ?? "not named"}</dd>
              <dt className="text-stone-500">From</dt>
              <dd data-testid="device-origin">
                {pending.requestAddress ?? "unknown address"}
                {pending.userAgent ? ` (${pending.userAgent})` : ""}
              </dd>
              <dt className="text-stone-500">Asked at</dt>
              <dd>{formatDateTime(pending.requestedAt)}</dd>
            </dl>
            <p className="text-sm text-stone-600">
              Only approve if you started this yourself and the code matches the one on your device.
            </p>
            <DeviceDecision userCode={pending.userCode} workspaces={await grantWorkspaces(user.id)} />
          </section>
        ) : (
          <form method="get" action="/device" className="flex flex-col gap-3">
            <label className="flex flex-col gap-1 text-sm">
              <span>Enter the code shown on your device</span>
              <input
                name="user_code"
                defaultValue={typed}
                required
                autoComplete="off"
                placeholder="BCDF-GHJK"
                maxLength={20}
                className={inputClass}
              />
            </label>
            {problem && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                {problem}
              </p>
            )}
            <button type="submit" className={buttonClass("primary", "lg")}>
              Continue
            </button>
          </form>
        )}
      </main>
    </div>
  );
}
