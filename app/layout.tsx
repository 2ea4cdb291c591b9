import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { SkipLink } from "@/components/site/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Verbatim", template: "%s · Verbatim" },
  description: "Timestamped transcripts from YouTube, X, TikTok, podcasts and your own files.",
};

// Pages are rendered per request (their scripts carry that request's CSP nonce, proxy.ts), except the
// public pages served from Next.js's cache (/t/{slug}, /explore), whose policy needs no nonce. A page that
// reads no request data must say `export const dynamic = "force-dynamic"` to stay per request.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <SkipLink />
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
