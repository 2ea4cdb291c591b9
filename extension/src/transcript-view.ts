// The transcript in the panel: its lines (a click seeks the video there), the line being said, found words
// marked. Text goes in as text only (textContent): a transcript may say anything, markup included.
import { findMatches, markLine, type Match } from "./lib/find";
import { lineAt, type Line } from "./lib/lines";
import { clock } from "./lib/quote";

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export class TranscriptView {
  private lines: Line[] = [];
  private items: HTMLButtonElement[] = [];
  private current = -1;
  private matches: Match[] = [];
  private match = -1;
  private readonly list = element<HTMLOListElement>("lines");
  private readonly count = element<HTMLSpanElement>("find-count");
  private readonly query = element<HTMLInputElement>("find-q");

  constructor(private readonly seek: (seconds: number) => void) {
    this.query.addEventListener("input", () => this.find());
    this.query.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.step(event.shiftKey ? -1 : 1);
    });
    element("find-next").addEventListener("click", () => this.step(1));
    element("find-prev").addEventListener("click", () => this.step(-1));
    this.list.addEventListener("click", (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button.line");
      const index = Number(button?.dataset.index);
      if (button && Number.isInteger(index) && this.lines[index]) this.seek(this.lines[index].start);
    });
  }

  show(lines: Line[]) {
    this.lines = lines;
    this.current = -1;
    this.query.value = "";
    this.matches = [];
    this.match = -1;
    this.count.textContent = "";
    this.render();
  }

  /** The line being said at `seconds` (or the first, before it starts). */
  lineNow(): Line | null {
    return this.lines[this.current] ?? this.lines[0] ?? null;
  }

  /** The video is at `seconds`: mark its line and keep it in view. */
  follow(seconds: number) {
    const next = lineAt(this.lines, seconds);
    if (next === this.current) return;
    this.items[this.current]?.removeAttribute("aria-current");
    this.current = next;
    const item = this.items[next];
    if (!item) return;
    item.setAttribute("aria-current", "true");
    // While the person reads the matches of a search, the list stays where they are.
    if (this.matches.length === 0) item.scrollIntoView({ block: "nearest" });
  }

  private render() {
    const fragment = document.createDocumentFragment();
    this.items = this.lines.map((line, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "line";
      button.dataset.index = String(index);
      button.dataset.start = String(line.start);
      const time = document.createElement("span");
      time.className = "time";
      time.textContent = clock(line.start);
      const text = document.createElement("span");
      text.className = "text";
      this.fill(text, index);
      button.append(time, text);
      item.append(button);
      fragment.append(item);
      return button;
    });
    this.list.replaceChildren(fragment);
    if (this.current >= 0) this.items[this.current]?.setAttribute("aria-current", "true");
  }

  private fill(target: HTMLElement, index: number) {
    const pieces = markLine(this.lines[index].text, index, this.matches);
    target.replaceChildren(
      ...pieces.map((piece) => {
        if (piece.match === null) return document.createTextNode(piece.text);
        const mark = document.createElement("mark");
        mark.textContent = piece.text;
        mark.dataset.match = String(piece.match);
        if (piece.match === this.match) mark.className = "here";
        return mark;
      }),
    );
  }

  private refill(lines: Iterable<number>) {
    for (const index of new Set(lines)) {
      const text = this.items[index]?.querySelector<HTMLElement>(".text");
      if (text) this.fill(text, index);
    }
  }

  private find() {
    const before = this.matches.map((match) => match.line);
    this.matches = findMatches(this.lines, this.query.value);
    this.match = this.matches.length > 0 ? 0 : -1;
    this.refill([...before, ...this.matches.map((match) => match.line)]);
    this.announce();
    this.reveal();
  }

  private step(by: number) {
    if (this.matches.length === 0) return;
    const was = this.matches[this.match]?.line;
    this.match = (this.match + by + this.matches.length) % this.matches.length;
    this.refill([...(was === undefined ? [] : [was]), this.matches[this.match].line]);
    this.announce();
    this.reveal();
  }

  private announce() {
    const query = this.query.value.trim();
    this.count.textContent =
      query === "" ? "" : this.matches.length === 0 ? "No matches" : `${this.match + 1} of ${this.matches.length}`;
  }

  private reveal() {
    const line = this.matches[this.match]?.line;
    if (line !== undefined) this.items[line]?.scrollIntoView({ block: "center" });
  }
}
