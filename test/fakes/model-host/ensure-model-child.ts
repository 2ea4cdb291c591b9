// One process asking for the model (the two-process download test): `tsx ensure-model-child.ts '<json>'`.
// Prints the path on success, exits 1 with the message otherwise.
import { ensureModel } from "@/lib/asr/local-model";
import { createOutbound } from "@/lib/http/outbound";

const { dir, baseUrl, info } = JSON.parse(process.argv[2]!) as {
  dir: string;
  baseUrl: string;
  info: { file: string; bytes: number; sha256: string };
};
ensureModel({
  name: "test",
  dir,
  baseUrl,
  info,
  outbound: createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" }),
}).then(
  (file) => console.log(file),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
