// The npm package `espeak-ng` (test/speech.ts) ships no types: its default export is the Emscripten module factory.
declare module "espeak-ng" {
  interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array };
  }
  export default function ESpeakNg(module: {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
  }): Promise<ESpeakNgModule>;
}
