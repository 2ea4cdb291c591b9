// One process fetching a pinned file (the two-process test of lib/models/pinned-file.ts):
// `tsx fetch-pinned-child.ts '<json>'`. Prints the path on success, exits 1 with the message otherwise.
import { createOutbound } from "@/lib/http/outbound";
import { fetchPinnedFile, type PinnedFile } from "@/lib/models/pinned-file";

const { pinned, target } = JSON.parse(process.argv[2]!) as { pinned: PinnedFile; target: string };
fetchPinnedFile(pinned, target, {
  outbound: createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" }),
  deadline: Date.now() + 60_000,
}).then(
  (file) => console.log(file),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
