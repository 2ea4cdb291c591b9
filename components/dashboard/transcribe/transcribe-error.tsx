import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export const errorBoxClass = "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800";

/** Why the request failed, in the user's words, with a retry when asking again can help, and the upgrade after a 402. */
export function TranscribeError({
  message,
  detail,
  onRetry,
  upgrade = false,
}: {
  message: string;
  detail: string | null;
  onRetry: (() => void) | null;
  upgrade?: boolean;
}) {
  return (
    <div
      role="alert"
      className={`${errorBoxClass} flex flex-wrap items-center justify-between gap-x-4 gap-y-2`}
      data-testid="transcribe-error"
    >
      <div className="min-w-0">
        <p data-testid="transcribe-error-message">{message}</p>
        {detail && <p className="mt-1 text-xs text-red-700">Details: {detail}</p>}
      </div>
      {upgrade && (
        <Link href="/dashboard/billing" className={buttonClass("primary")} data-testid="transcribe-upgrade">
          See plans and upgrade
        </Link>
      )}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className={buttonClass("danger-outline")}
          data-testid="transcribe-retry"
        >
          Try again
        </button>
      )}
    </div>
  );
}
