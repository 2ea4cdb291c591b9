"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/auth/nextauth";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

export async function signInWith(formData: FormData) {
  // An action can be called with any arguments (its id is in the page): anything but a form goes back to sign-in.
  if (!(formData instanceof FormData)) redirect("/signin");
  const provider = String(formData.get("provider") ?? "");
  const redirectTo = safeCallbackPath(formData.get("callbackUrl"));
  const email = formData.get("email");
  try {
    await signIn(provider, email ? { email: String(email), redirectTo } : { redirectTo });
  } catch (error) {
    // Auth.js throws its errors to server actions (its redirect on success is not an AuthError).
    if (!(error instanceof AuthError)) throw error;
    const params = new URLSearchParams({ error: error.type, callbackUrl: redirectTo });
    if (error instanceof CredentialsSignin) params.set("code", error.code);
    redirect(`/signin?${params}`);
  }
}
