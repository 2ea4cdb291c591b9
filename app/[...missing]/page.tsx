import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";

// Every address no other route answers: the 404 page (app/not-found.tsx), rendered per request so that its
// scripts carry this view's CSP nonce (proxy.ts). Next.js's own 404 for unknown addresses is prerendered,
// and a prerendered page has no nonce.
export const metadata: Metadata = { title: "Page not found" };

export default async function Missing(): Promise<never> {
  await connection();
  notFound();
}
