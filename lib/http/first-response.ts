// The moment a start's postponable work begins: once the server has answered its first request, or a few
// seconds after it could, whichever comes first. On two cores the job runner's first claims, webhook
// deliveries and the yt-dlp probe (a Python start) otherwise compete with that first request
// (docs/decisions/0008-a-quick-first-answer-and-cheap-cached-pages.md).

let markAnswered: () => void = () => undefined;
const firstAnswer = new Promise<void>((resolve) => (markAnswered = resolve));

/** Called for every answered request (lib/http/request-guard.ts); only the first one counts. */
export function noteAnswered(): void {
  markAnswered();
}

/** Resolves when the first request has been answered, or after `atMostMs`, whichever comes first. */
export function afterFirstAnswer(atMostMs: number): Promise<void> {
  return Promise.race([firstAnswer, new Promise<void>((resolve) => setTimeout(resolve, atMostMs).unref())]);
}
