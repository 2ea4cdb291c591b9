/** A label said shorter on a phone (below `sm`), where a row of controls has to fit the screen's width. */
export function PhoneShort({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="sm:hidden">{short}</span>
      <span className="max-sm:hidden">{long}</span>
    </>
  );
}
