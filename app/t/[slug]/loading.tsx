// A public transcript on its way (a client-side navigation from Explore or a search result, on a slow line):
// shown at once in place of the page, announced to screen readers.
export default function Loading() {
  return (
    <main id="main" className="mx-auto flex max-w-3xl flex-col gap-3 px-4 py-10 sm:px-6" aria-busy="true">
      <p role="status" className="text-stone-700" data-testid="transcript-loading">
        Loading the transcript…
      </p>
    </main>
  );
}
