// The local sentence models (a pinned catalogue): apart from the model's code (sentence-model.ts) so that what only
// names a model (settings, doctor, /health) loads neither the runtime nor the download.

export interface SentenceModelFile {
  /** Its path in the model's repository on the host: `<base>/<repo>/resolve/<revision>/<path>`. */
  path: string;
  /** Its name under DATA_DIR/models/<model>/. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface SentenceModelInfo {
  /** The repository on the host (Hugging Face's `owner/name`). */
  repo: string;
  /** The commit the files are fetched at: the pinned files never change under the same URL. */
  revision: string;
  dims: number;
  /** Tokens read of a text (the model's max_seq_length): the rest of a longer passage is not read. */
  maxTokens: number;
  /** The ONNX graph (inputs input_ids, attention_mask and, if it has one, token_type_ids; its first output the last hidden state). */
  model: SentenceModelFile;
  /** The tokenizer (tokenizer.json, as the `tokenizers` library writes it). */
  tokenizer: SentenceModelFile;
}

/**
 * sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0): 384 dimensions, mean pooling of the last hidden state over
 * the attention mask and unit length, as its model card says. Sizes and SHA-256s are those of the files' Git LFS
 * objects at the pinned revision.
 */
export const SENTENCE_MODELS: Readonly<Record<string, SentenceModelInfo>> = {
  "all-MiniLM-L6-v2": {
    repo: "sentence-transformers/all-MiniLM-L6-v2",
    revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
    dims: 384,
    maxTokens: 256,
    model: {
      path: "onnx/model.onnx",
      file: "model.onnx",
      bytes: 90_405_214,
      sha256: "6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452",
    },
    tokenizer: {
      path: "tokenizer.json",
      file: "tokenizer.json",
      bytes: 466_247,
      sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    },
  },
};

/** The identity stored with each vector: the model's name and its weights' checksum (vectors of two never mix). */
export const sentenceModelIdentity = (name: string, info: SentenceModelInfo) =>
  `local/${name}@${info.model.sha256.slice(0, 12)}`;
