import Link from "next/link";

export default function DashboardHome() {
  return (
    <section className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold">Transcribe</h1>
      <p className="text-stone-600">
        Transcription from the dashboard arrives with the transcripts release. Meanwhile, create an API key and call the
        API directly; the <Link className="underline" href="/docs">API reference</Link> lists every operation.
      </p>
      <Link href="/dashboard/keys" className="w-fit rounded-md bg-stone-900 px-4 py-2 text-white hover:bg-stone-700">
        Get an API key
      </Link>
    </section>
  );
}
