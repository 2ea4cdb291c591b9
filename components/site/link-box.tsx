"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { buttonClass } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { focusRing } from "@/components/ui/focus";

/**
 * The home page's link box: a link (or the sample) goes to the Transcribe page, through sign-in when
 * needed. The link rides in the sign-in's callbackUrl with its slashes left as they are (the redirect
 * rule refuses encoded slashes, lib/auth/safe-redirect.ts). Without JavaScript the form still opens
 * the dashboard. While the Transcribe page is on its way (a slow line), the form says so: the button is
 * disabled and reads "Opening…", the form is aria-busy (the navigation runs in a transition, whose pending
 * flag lasts until the new page is shown). The sample is offered only when it can work here (`sampleLink`,
 * lib/browser/what-works.ts).
 */
export function LinkBox({ signedIn, sampleLink }: { signedIn: boolean; sampleLink: string | null }) {
  const router = useRouter();
  const [url, setUrl] = useState("");
  const [pending, startTransition] = useTransition();

  function open(link: string) {
    const target = `/dashboard?url=${encodeURIComponent(link).replace(/%2F/gi, "/")}&lang=en`;
    startTransition(() => {
      if (signedIn) router.push(target);
      else router.push(`/signin?${new URLSearchParams({ callbackUrl: target })}`);
    });
  }

  return (
    <form
      method="get"
      action="/dashboard"
      onSubmit={(event) => {
        event.preventDefault();
        if (url.trim() && !pending) open(url.trim());
      }}
      aria-busy={pending}
      className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
      aria-label="Transcribe a link"
      data-testid="link-box"
    >
      <label htmlFor="home-link" className="text-sm font-medium">
        Paste a video or podcast link
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="home-link"
          name="url"
          type="text"
          inputMode="url"
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="https://www.youtube.com/watch?v=…"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          className={`min-w-0 flex-1 ${controlClass}`}
          data-testid="home-url"
        />
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending}
          className={buttonClass("primary", "lg")}
          data-testid="home-submit"
        >
          {pending ? "Opening…" : "Get the transcript"}
        </button>
      </div>
      {sampleLink && (
        <p className="text-xs text-stone-600">
          No link at hand?{" "}
          <button
            type="button"
            onClick={() => open(sampleLink)}
            disabled={pending}
            className={`rounded font-medium text-stone-900 underline ${focusRing}`}
            data-testid="home-sample"
          >
            Try a sample: a TED talk with captions
          </button>
        </p>
      )}
    </form>
  );
}
