"use server";

import { signOut } from "@/lib/auth/nextauth";

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/** Signed in with another address than the invited one: sign out, and come back to the invitation after signing in. */
export async function switchAccountAction(formData: FormData) {
  const token = formData instanceof FormData ? String(formData.get("token") ?? "") : "";
  const back = TOKEN.test(token) ? `/invite/${token}` : "/dashboard/team";
  await signOut({ redirectTo: `/signin?${new URLSearchParams({ callbackUrl: back })}` });
}
