import type { Metadata } from "next";
import { dashboardWorkspace } from "@/lib/auth/dashboard-workspace";
import { PublishedList } from "@/components/dashboard/published-list";
import { listMyPublications } from "@/lib/publishing/list-my-publications";

export const metadata: Metadata = { title: "Published" };

export default async function PublishedPage() {
  const found = await dashboardWorkspace();
  const items = found ? await listMyPublications(found.workspace.accountId) : [];
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Published</h1>
      <p className="text-sm text-stone-600">
        Public pages anyone can read, listed on Explore and in the sitemap. Unpublishing takes a page down at once;
        publishing it again brings back the same link.
      </p>
      <PublishedList items={items} />
    </section>
  );
}
