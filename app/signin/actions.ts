"use server";

import { signIn } from "@/lib/auth/nextauth";
import { safeCallbackPath } from "@/lib/auth/safe-redirect";

export async function signInWith(formData: FormData) {
  const provider = String(formData.get("provider") ?? "");
  const redirectTo = safeCallbackPath(formData.get("callbackUrl"));
  const email = formData.get("email");
  await signIn(provider, email ? { email: String(email), redirectTo } : { redirectTo });
}
