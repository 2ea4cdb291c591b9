import type { Metadata } from "next";
import { NotFoundView } from "@/components/site/not-found-view";

export const metadata: Metadata = { title: "Page not found" };

// Static: it is also the boundary of the cached public pages. An unknown address is answered by
// app/[...missing], per request, so that this page's scripts carry the view's CSP nonce there.
export default function NotFound() {
  return <NotFoundView />;
}
