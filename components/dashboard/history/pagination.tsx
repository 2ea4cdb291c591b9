import { HISTORY_PAGE_SIZE, type HistoryParams } from "@/lib/browser/transcripts";
import { buttonClass } from "@/components/ui/button";

/** "1–20 of 57" and Previous / Next. */
export function Pagination({
  params,
  total,
  shown,
  onPage,
}: {
  params: HistoryParams;
  total: number;
  shown: number;
  onPage: (page: number) => void;
}) {
  const offset = (params.page - 1) * HISTORY_PAGE_SIZE;
  const from = shown > 0 ? offset + 1 : 0;
  const to = offset + shown;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3 text-sm text-stone-600">
      <p data-testid="history-range">
        {from}–{to} of {total}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          disabled={params.page <= 1}
          onClick={() => onPage(params.page - 1)}
          className={buttonClass()}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={offset + HISTORY_PAGE_SIZE >= total}
          onClick={() => onPage(params.page + 1)}
          className={buttonClass()}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
