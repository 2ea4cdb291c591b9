import type { Metadata } from "next";
import Link from "next/link";
import { requireSignedIn } from "@/lib/oauth/sign-in-gate";
import { previewInvitation } from "@/lib/teams/invitations";
import { AcceptInvitation } from "@/components/dashboard/team/accept-invitation";
import { SiteHeader } from "@/components/site/site-header";
import { buttonClass } from "@/components/ui/button";

// The link in an invitation's mail. The token is the secret: no Referer carries it off this page.
export const metadata: Metadata = { title: "Join a team", referrer: "no-referrer", robots: { index: false } };
export const dynamic = "force-dynamic";

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const wellFormed = TOKEN.test(token);
  const user = await requireSignedIn(wellFormed ? `/invite/${token}` : "/dashboard/team");
  const invitation = wellFormed ? await previewInvitation(token) : null;
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
        ) : (
          <AcceptInvitation token={token} teamName={invitation.teamName} role={invitation.role} />
        )}
      </main>
    </div>
  );
}
