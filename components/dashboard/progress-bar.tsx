/** A determinate progress bar: `value` in percent (clamped, rounded), announced as "N%". */
export function ProgressBar({
  value,
  label,
  tone = "bg-stone-900",
  testId,
}: {
  value: number;
  label: string;
  /** The fill's background class. */
  tone?: string;
  testId?: string;
}) {
  const percent = Math.round(Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%`}
      className="h-2 w-full overflow-hidden rounded-full bg-stone-100"
      data-testid={testId}
    >
      <div
        className={`h-full rounded-full transition-[width] duration-500 ease-out ${tone}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
