import type { HTMLAttributes } from "react";

const TONES = {
  error: "border-red-200 bg-red-50 text-red-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
} as const;

/** A boxed message: an error (role=alert), a warning or a success. */
export function Notice({
  tone,
  className = "",
  ...props
}: HTMLAttributes<HTMLDivElement> & { tone: keyof typeof TONES; "data-testid"?: string }) {
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className={`rounded-md border px-3 py-2 text-sm ${TONES[tone]} ${className}`}
      {...props}
    />
  );
}

/** A failed request's message, in a line of its own; nothing while there is none. */
export function ErrorText({ error }: { error: Error | null }) {
  return error ? (
    <p role="alert" className="text-sm text-red-700">
      {error.message}
    </p>
  ) : null;
}
