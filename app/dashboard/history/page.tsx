import { Suspense } from "react";
import type { Metadata } from "next";
import { HistoryTable } from "@/components/dashboard/history-table";

export const metadata: Metadata = { title: "History" };

export default function HistoryPage() {
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">History</h1>
      {/* The table keeps its state in the query string (useSearchParams), which needs a Suspense boundary. */}
      <Suspense fallback={<p className="text-sm text-stone-500">Loading…</p>}>
        <HistoryTable />
      </Suspense>
    </section>
  );
}
