import type { Metadata } from "next";

// Per request: its scripts carry the view's CSP nonce (app/layout.tsx).
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Check your email" };

export default function CheckEmailPage() {
  return (
    <main id="main" className="mx-auto flex max-w-sm flex-col gap-4 px-6 py-24">
      <h1 className="text-2xl font-semibold">Check your email</h1>
      <p className="text-stone-600">
        A sign-in link is on its way. Without SMTP configured, the link is printed to the server log.
      </p>
    </main>
  );
}
