import type { ReactNode } from "react";
import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { DashboardNav } from "@/components/dashboard/nav";
import { signOutAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await auth();
  if (!session?.user?.id) redirect("/signin?callbackUrl=/dashboard");
  return (
    <div className="min-h-screen">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-6 py-3">
          <Link href="/dashboard" className="font-semibold">
            Verbatim
          </Link>
          <DashboardNav />
          <form action={signOutAction} className="flex items-center gap-3 text-sm text-stone-600">
            <span data-testid="user-email">{session.user.email}</span>
            <button type="submit" className="rounded-md border border-stone-300 px-2 py-1 hover:bg-stone-100">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-8">{children}</main>
    </div>
  );
}
