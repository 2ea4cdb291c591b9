import Link from "next/link";

// Per request: its scripts carry the view's CSP nonce (app/layout.tsx).
export const dynamic = "force-dynamic";

export default function HomePage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-24">
      <h1 className="text-4xl font-semibold tracking-tight">Verbatim</h1>
      <p className="text-lg text-stone-600">
        Paste a YouTube, X, TikTok, Facebook, Instagram, RedNote or Vimeo link, a podcast episode or a file, and get a
        timestamped transcript as text, SRT, VTT, Markdown or JSON.
      </p>
      <div className="flex gap-3">
        <Link href="/dashboard" className="rounded-md bg-stone-900 px-4 py-2 text-white hover:bg-stone-700">
          Open the dashboard
        </Link>
        <Link href="/docs" className="rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-100">
          API reference
        </Link>
      </div>
    </main>
  );
}
