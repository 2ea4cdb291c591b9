// The local recogniser's models (a pinned catalogue): apart from the download (local-model.ts) so that what only
// names or sizes a model (/health, the setup checks) does not load the outbound stack.

export interface LocalModelInfo {
  file: string;
  bytes: number;
  sha256: string;
}

/**
 * whisper.cpp's converted OpenAI Whisper models, as published at huggingface.co/ggerganov/whisper.cpp.
 * Sizes and SHA-256s are those of the files' Git LFS objects there.
 */
export const LOCAL_MODELS: Readonly<Record<string, LocalModelInfo>> = {
  "base-q5_1": {
    file: "ggml-base-q5_1.bin",
    bytes: 59_707_625,
    sha256: "422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898",
  },
  base: {
    file: "ggml-base.bin",
    bytes: 147_951_465,
    sha256: "60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe",
  },
  "tiny-q5_1": {
    file: "ggml-tiny-q5_1.bin",
    bytes: 32_152_673,
    sha256: "818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7",
  },
  tiny: {
    file: "ggml-tiny.bin",
    bytes: 77_691_713,
    sha256: "be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21",
  },
};
