// The name of who speaks, shown before a paragraph where the speaker changes (only where the transcript's
// source names its speakers; lib/formats/paragraphs.ts decides where).
export function SpeakerLabel({ name }: { name: string | undefined }) {
  if (!name) return null;
  return (
    <strong className="mr-2 font-sans text-sm font-semibold text-stone-800" data-testid="speaker">
      {name}:
    </strong>
  );
}
