// `npm run bench -- watch`: recordings dropped in a watched folder, one alone and then a hundred at once, each from
// settling to its results beside it (watch-run.ts, in a process of its own: its settings are read once).
import { figuresOfProcess } from "./own-process";

export async function benchWatch(): Promise<Record<string, number>> {
  return figuresOfProcess("watch-run.ts");
}
