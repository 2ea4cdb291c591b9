import { useRef, type ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { controlClass } from "@/components/ui/field";
import { useTypedBeforeHydration } from "@/components/ui/use-hydrated";
import { ErrorText } from "@/components/ui/notice";

// What the panels that add things by URL and list them (imports, follows, webhook endpoints) are made of.

/**
 * The form's URL: its label's text above a required URL input; `grow` takes the row's room beside its button.
 * What is typed before the page hydrates is kept.
 */
export function UrlField({
  id,
  value,
  onChange,
  placeholder,
  grow = false,
  children,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  grow?: boolean;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(input, value, onChange);
  return (
    <label htmlFor={id} className={grow ? "flex flex-1 flex-col gap-1 text-sm" : "flex flex-col gap-1 text-sm"}>
      {children}
      <input
        ref={input}
        id={id}
        type="url"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={controlClass}
      />
    </label>
  );
}

/** The query's items, one `children(item)` each; "Loading…" first where `loading`, its error, or `empty`. */
export function PanelList<T>({
  query,
  label,
  empty,
  loading = false,
  children,
}: {
  query: UseQueryResult<T[]>;
  label: string;
  empty: string;
  loading?: boolean;
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      {loading && query.isPending ? <p className="text-sm text-stone-500">Loading…</p> : null}
      <ErrorText error={query.error} />
      {query.data && query.data.length === 0 ? <p className="text-sm text-stone-500">{empty}</p> : null}
      <ul className="flex flex-col gap-3" aria-label={label}>
        {query.data?.map((item) => children(item))}
      </ul>
    </>
  );
}

/** One item of a PanelList: a card whose first line is `head` (its name, then its state). */
export function PanelItem({ testId, head, children }: { testId: string; head: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-4" data-testid={testId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">{head}</div>
      {children}
    </li>
  );
}
