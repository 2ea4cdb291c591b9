import { expect, test } from "vitest";
import { ancestorsOfText, hides } from "./html-ancestry";

test("the elements around a text, scripts and comments skipped; hidden and template elements are told apart", () => {
  const html =
    '<html><head><title>the needle</title></head><body><script>var x = "needle";</script><!-- needle --><main><p hidden>other</p><br><div hidden id="S:0"><p class="a">the needle</p></div></main></body></html>';
  const ancestors = ancestorsOfText(html, "needle")!;
  expect(ancestors.map((element) => element.tag)).toEqual(["body", "main", "div", "p"]);
  expect(ancestors.filter(hides).map((element) => element.tag)).toEqual(["div"]);
  expect(ancestorsOfText("<main><p>shown</p></main>", "shown")!.filter(hides)).toEqual([]);
  expect(ancestorsOfText("<template><p>inside</p></template>", "inside")!.filter(hides)).toHaveLength(1);
  expect(ancestorsOfText("<p>elsewhere</p>", "needle")).toBeNull();
});
