// A dashboard page on its way (a transcript opened from History or a search result renders with its page, on
// a slow line that takes a while): shown at once under the dashboard's header, announced to screen readers.
export default function Loading() {
  return (
    <p role="status" aria-busy="true" className="text-sm text-stone-600" data-testid="dashboard-loading">
      Loading…
    </p>
  );
}
