import Link from "next/link";
import { auth } from "@/lib/auth/nextauth";
import { SiteHeader } from "@/components/site/site-header";
import { LinkBox } from "@/components/site/link-box";
import { sampleLinkFor } from "@/lib/browser/what-works";
import { serverCapabilities } from "@/lib/health/capabilities";
import { setupProblemsNow } from "@/lib/health/setup-check-results";
import { speechRecognitionAvailable } from "@/lib/transcripts/asr-provider";

// Per request: its scripts carry the view's CSP nonce (app/layout.tsx), and the header knows who is signed in.
export const dynamic = "force-dynamic";

const WHAT_PEOPLE_DO = [
  ["Read and search", "a video or podcast as text, the line being played highlighted as it plays."],
  ["Download", "as text, SRT, VTT, Markdown or JSON, with or without timestamps."],
  ["Publish", "a transcript as a public page anyone can read and search."],
  ["Script it", "with the API, the command-line tool or an AI assistant (MCP)."],
] as const;

export default async function HomePage() {
  const session = await auth();
  const signedIn = !!session?.user?.id;
  return (
    <div className="min-h-screen">
      <SiteHeader signIn={!signedIn} />
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12 sm:px-6 sm:py-20">
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">
            Timestamped transcripts of any video, podcast or file.
          </h1>
          <p className="text-lg text-stone-600" data-testid="pitch">
            Paste a YouTube, X, TikTok, Facebook, Instagram, RedNote or Vimeo link, a podcast episode or a file; read
            it, search it, download it.
          </p>
        </div>
        <LinkBox
          signedIn={signedIn}
          sampleLink={sampleLinkFor(serverCapabilities(setupProblemsNow(), speechRecognitionAvailable()))}
        />
        <ul className="grid gap-4 text-sm sm:grid-cols-2">
          {WHAT_PEOPLE_DO.map(([what, how]) => (
            <li key={what}>
              <span className="font-medium">{what}</span> <span className="text-stone-600">{how}</span>
            </li>
          ))}
        </ul>
        <p className="text-sm text-stone-600">
          <Link href="/explore" className="underline">
            Browse published transcripts
          </Link>{" "}
          or read the{" "}
          <Link href="/docs" className="underline">
            API reference
          </Link>
          .
        </p>
      </main>
    </div>
  );
}
