import type { Metadata } from "next";
import Link from "next/link";
import { requireSignedIn } from "@/lib/oauth/sign-in-gate";
import { previewInvitation } from "@/lib/teams/invitations";
import { AcceptInvitation } from "@/components/dashboard/team/accept-invitation";
import { SiteHeader } from "@/components/site/site-header";
import { buttonClass } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { switchAccountAction } from "./actions";

// The link in an invitation's mail. The token is the secret: no Referer carries it off this page.
export const metadata: Metadata = { title: "Join a team", referrer: "no-referrer", robots: { index: false } };
export const dynamic = "force-dynamic";

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** "a…@example.com": enough for the person to recognise their address, not all of it for whoever has the link. */
function maskedAddress(email: string): string {
  const at = email.lastIndexOf("@");
  return at > 0 ? `${email[0]}…${email.slice(at)}` : "another address";
}

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const wellFormed = TOKEN.test(token);
  const user = await requireSignedIn(wellFormed ? `/invite/${token}` : "/dashboard/team");
  const invitation = wellFormed ? await previewInvitation(token) : null;
  // Told before Join, not by Join's refusal: only the invited address may use the link.
  const otherAccount = invitation && !invitation.problem && user.email?.toLowerCase() !== invitation.email;
  return (
    <div className="min-h-screen">
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-md flex-col gap-6 px-4 py-16 sm:px-6 sm:py-24">
        <h1 className="text-2xl font-semibold">Join a team</h1>
        <p className="text-sm text-stone-600 break-all">Signed in as {user.email ?? "you"}.</p>
        {!invitation || invitation.problem ? (
          <>
            <p role="alert" className="text-red-700">
              This invitation link {invitation?.problem ?? "is not one this server sent"}: ask the team for a new one.
            </p>
            <Link href="/dashboard" className={buttonClass("secondary", "md", "self-start")}>
              Go to the dashboard
            </Link>
          </>
        ) : otherAccount ? (
          <>
            <Notice tone="warning" data-testid="invitation-other-account">
              This invitation to <strong>{invitation.teamName}</strong> was sent to {maskedAddress(invitation.email)},
              not to the address you are signed in with. Sign in with the address it was sent to, then open the link
              again.
            </Notice>
            <form action={switchAccountAction}>
              <input type="hidden" name="token" value={token} />
              <button type="submit" className={buttonClass("primary", "lg")}>
                Sign out and sign in as the invited address
              </button>
            </form>
          </>
        ) : (
          <AcceptInvitation token={token} teamName={invitation.teamName} role={invitation.role} />
        )}
      </main>
    </div>
  );
}
