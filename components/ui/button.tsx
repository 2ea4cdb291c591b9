import type { ButtonHTMLAttributes } from "react";
import { focusRing } from "@/components/ui/focus";

export type ButtonVariant = "primary" | "secondary" | "danger" | "danger-outline" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    "bg-stone-900 font-medium text-white hover:bg-stone-700 focus-visible:ring-offset-2 focus-visible:ring-offset-white",
  secondary: "border border-stone-300 bg-white hover:bg-stone-100",
  danger: "bg-red-700 text-white hover:bg-red-800",
  "danger-outline": "border border-red-300 bg-white font-medium text-red-800 hover:bg-red-100",
  ghost: "text-stone-700 underline decoration-stone-300 hover:text-stone-900 hover:decoration-stone-900",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "px-2 py-1 text-xs",
  md: "px-3 py-1.5 text-sm",
  lg: "px-4 py-2 text-sm",
};

/**
 * The class of a button (or a link that looks like one). Phones get 44 px tall targets (WCAG 2.5.5); the
 * palette is mirrored in the dark (app/globals.css), so no `dark:` twin is needed.
 */
export function buttonClass(variant: ButtonVariant = "secondary", size: ButtonSize = "md", extra = ""): string {
  return `inline-flex items-center justify-center gap-2 rounded-md max-sm:min-h-11 ${SIZES[size]} ${VARIANTS[variant]} ${focusRing} disabled:cursor-not-allowed disabled:opacity-50 ${extra}`.trim();
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: React.Ref<HTMLButtonElement>;
};

export function Button({ variant = "secondary", size = "md", className = "", type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}
