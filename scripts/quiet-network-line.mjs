// Listening on a loopback address, Next.js prints it again as the "- Network:" address, which no one else can
// reach: the line is dropped. Imported by start.mjs for `npm start` (Next.js serves in that process) and handed to
// `next dev`'s server process with NODE_OPTIONS' --import (it serves in a child process Next.js forks).
import { isLoopbackNetworkLine } from "./start-rules.mjs";

const print = console.log;
console.log = (...line) => {
  if (!isLoopbackNetworkLine(line[0])) print(...line);
};
