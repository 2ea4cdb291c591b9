import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { focusRing } from "@/components/ui/focus";

/** Text inputs and selects: one look, one focus ring. */
export const controlClass = `rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 placeholder:text-stone-500 max-sm:min-h-11 disabled:cursor-not-allowed disabled:opacity-50 ${focusRing}`;

export function Input({
  className = "",
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> }) {
  return <input ref={ref} className={`${controlClass} ${className}`} {...props} />;
}

export function Select({ className = "", children, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={`${controlClass} ${className}`} {...props}>
      {children}
    </select>
  );
}

/** A labelled control: the label above it, both in one column. */
export function Field({
  label,
  htmlFor,
  className = "",
  children,
}: {
  label: ReactNode;
  htmlFor: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex min-w-0 flex-col gap-1 text-sm ${className}`}>
      <label htmlFor={htmlFor} className="font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}
