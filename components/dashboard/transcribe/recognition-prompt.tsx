"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { fetchSubscription, formatMinutes, SUBSCRIPTION_KEY } from "@/lib/browser/transcripts";
import { allowanceLeft } from "@/lib/browser/billing";
import type { LanguagesResponse } from "@/lib/browser/languages";
import { buttonClass } from "@/components/ui/button";
import { focusRing } from "@/components/ui/focus";

/**
 * Asked before a link goes to speech recognition, which uses the allowance: the video has no captions
 * in the language asked for. Offers the languages it has (free), and recognition with its cost against
 * what is left (or the upgrade, when that is not enough).
 */
export function RecognitionPrompt({
  lang,
  info,
  speechRecognition,
  onLanguage,
  onRecognise,
  onCancel,
}: {
  lang: string;
  info: LanguagesResponse;
  speechRecognition: boolean;
  onLanguage: (code: string) => void;
  onRecognise: () => void;
  onCancel: () => void;
}) {
  const subscription = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: fetchSubscription });
  const left = subscription.data ? allowanceLeft(subscription.data) : null;
  const cost = info.duration_seconds;
  const enough = left === null || cost <= left;
  const what = info.title ? `“${info.title}”` : "This video";
  return (
    <section
      aria-labelledby="recognition-prompt-title"
      className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      data-testid="recognition-prompt"
    >
      <h2 id="recognition-prompt-title" className="font-semibold">
        {what} has no captions in “{lang}”.
      </h2>
      {info.languages.length > 0 ? (
        <div className="flex flex-col gap-2">
          <p>It has captions in these languages, free to use:</p>
          <ul className="flex flex-wrap gap-2" data-testid="available-languages">
            {info.languages.map((language) => (
              <li key={`${language.code}-${language.kind}`}>
                <button
                  type="button"
                  onClick={() => onLanguage(language.code)}
                  className={buttonClass("secondary", "md")}
                  data-testid="use-language"
                >
                  {language.name}
                  {language.kind === "auto" ? " (automatic)" : ""}{" "}
                  <span className="font-mono text-xs">{language.code}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>It has no captions at all.</p>
      )}
      {speechRecognition && (
        <div className="flex flex-col gap-2">
          <p data-testid="recognition-cost">
            {subscription.data?.unlimited
              ? `Speech recognition can transcribe it in “${lang}”: about ${formatMinutes(cost)} of audio, and there is no limit on this server.`
              : `Speech recognition can transcribe it in “${lang}”: that uses about ${formatMinutes(cost)} of your allowance${left !== null ? ` (${formatMinutes(left)} left this period)` : ""}.`}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            {enough ? (
              <button
                type="button"
                onClick={onRecognise}
                className={buttonClass("primary")}
                data-testid="confirm-recognition"
              >
                Transcribe with speech recognition ({formatMinutes(cost)})
              </button>
            ) : (
              <Link href="/dashboard/billing" className={buttonClass("primary")} data-testid="upgrade-link">
                Not enough left: see plans
              </Link>
            )}
            <button type="button" onClick={onCancel} className={buttonClass("ghost")}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {!speechRecognition && (
        <button type="button" onClick={onCancel} className={`self-start rounded underline ${focusRing}`}>
          Cancel
        </button>
      )}
    </section>
  );
}
