/**
 * A tiny sentence model in ONNX's own format (a ModelProto written with protobufjs from the fields of onnx.proto
 * it needs) and its tokenizer.json (a BERT WordPiece tokenizer as the `tokenizers` library writes it, the layout of
 * all-MiniLM-L6-v2's): the graph's inputs and output are a sentence-transformers export's (input_ids, attention_mask,
 * token_type_ids → last_hidden_state [batch, tokens, dims]); each token's hidden state is its embedding (doubled where
 * the mask has it: a padded position keeps one, as a real encoder's does), so the words of one topic give near vectors
 * and a text's meaning is its words' topics.
 */
import protobuf from "protobufjs";

const T = { FLOAT: 1, INT64: 7 } as const;

// Field numbers as in onnx/onnx.proto (IR version 8).
export const onnx = protobuf.Root.fromJSON({
  nested: {
    ModelProto: {
      fields: {
        irVersion: { id: 1, type: "int64" },
        producerName: { id: 2, type: "string" },
        graph: { id: 7, type: "GraphProto" },
        opsetImport: { id: 8, type: "OperatorSetIdProto", rule: "repeated" },
      },
    },
    OperatorSetIdProto: { fields: { domain: { id: 1, type: "string" }, version: { id: 2, type: "int64" } } },
    GraphProto: {
      fields: {
        node: { id: 1, type: "NodeProto", rule: "repeated" },
        name: { id: 2, type: "string" },
        initializer: { id: 5, type: "TensorProto", rule: "repeated" },
        input: { id: 11, type: "ValueInfoProto", rule: "repeated" },
        output: { id: 12, type: "ValueInfoProto", rule: "repeated" },
      },
    },
    NodeProto: {
      fields: {
        input: { id: 1, type: "string", rule: "repeated" },
        output: { id: 2, type: "string", rule: "repeated" },
        name: { id: 3, type: "string" },
        opType: { id: 4, type: "string" },
        attribute: { id: 5, type: "AttributeProto", rule: "repeated" },
      },
    },
    AttributeProto: {
      fields: {
        name: { id: 1, type: "string" },
        f: { id: 2, type: "float" },
        i: { id: 3, type: "int64" },
        ints: { id: 8, type: "int64", rule: "repeated" },
        type: { id: 20, type: "int32" },
      },
    },
    TensorProto: {
      fields: {
        dims: { id: 1, type: "int64", rule: "repeated" },
        dataType: { id: 2, type: "int32" },
        name: { id: 8, type: "string" },
        rawData: { id: 9, type: "bytes" },
      },
    },
    ValueInfoProto: { fields: { name: { id: 1, type: "string" }, type: { id: 2, type: "TypeProto" } } },
    TypeProto: { fields: { tensorType: { id: 1, type: "TensorTypeProto" } } },
    TensorTypeProto: { fields: { elemType: { id: 1, type: "int32" }, shape: { id: 2, type: "TensorShapeProto" } } },
    TensorShapeProto: { fields: { dim: { id: 1, type: "Dimension", rule: "repeated" } } },
    Dimension: { fields: { dimValue: { id: 1, type: "int64" }, dimParam: { id: 2, type: "string" } } },
  },
});

/** The topics a word can be about (one dimension each) and their words. */
export const TINY_TOPICS: readonly (readonly string[])[] = [
  ["carrier", "flattop", "ship", "fleet", "navy", "hiryu", "escaped", "away"],
  ["rocket", "engine", "launch", "thrust", "fuel", "booster", "liftoff", "ignition"],
  ["cat", "litter", "clay", "bentonite", "box", "filler", "absorbs", "mineral"],
  ["river", "mountain", "valley", "glacier", "erosion", "delta", "canyon", "basin"],
];
/** Words of no topic: every topic a little (as "the" is near everything). */
const COMMON = [
  "the",
  "a",
  "of",
  "to",
  "and",
  "only",
  "lone",
  "got",
  "what",
  "has",
  "do",
  "with",
  "this",
  "that",
  "it",
];
export const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
export const TINY_DIMS = TINY_TOPICS.length + 1;

export function tinyVocabulary(): string[] {
  return [...SPECIAL, ...COMMON, ...TINY_TOPICS.flat(), "##s"];
}

/** Each token's row of the model's embedding table: its hidden state (the graph adds nothing else to it). */
export function embeddingTable(vocabulary: readonly string[]): Float32Array {
  const table = new Float32Array(vocabulary.length * TINY_DIMS);
  vocabulary.forEach((word, id) => {
    const row = table.subarray(id * TINY_DIMS, (id + 1) * TINY_DIMS);
    const topic = TINY_TOPICS.findIndex((words) => words.includes(word));
    if (topic >= 0) {
      row[topic] = 1;
      row[TINY_DIMS - 1] = 0.1 * (TINY_TOPICS[topic]!.indexOf(word) + 1);
    } else row.fill(0.05);
  });
  return table;
}

const dims = (...names: (string | number)[]) => ({
  dim: names.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })),
});
const value = (name: string, elemType: number, shape: (string | number)[]) => ({
  name,
  type: { tensorType: { elemType, shape: dims(...shape) } },
});
const tensor = (name: string, shape: number[], dataType: number, bytes: Uint8Array) => ({
  name,
  dims: shape,
  dataType,
  rawData: bytes,
});

/** The model's bytes (ONNX, opset 13): hidden = (embedding[input_ids] + type_embedding[token_type_ids]) × (1 + mask). */
export function tinySentenceOnnx(): Buffer {
  const vocabulary = tinyVocabulary();
  const table = embeddingTable(vocabulary);
  const types = new Float32Array(2 * TINY_DIMS);
  const axes = new BigInt64Array([-1n]);
  const ModelProto = onnx.lookupType("ModelProto");
  const message = ModelProto.fromObject({
    irVersion: 8,
    producerName: "verbatim-tests",
    opsetImport: [{ domain: "", version: 13 }],
    graph: {
      name: "tiny-sentence-model",
      initializer: [
        tensor("embeddings", [vocabulary.length, TINY_DIMS], T.FLOAT, new Uint8Array(table.buffer)),
        tensor("type_embeddings", [2, TINY_DIMS], T.FLOAT, new Uint8Array(types.buffer)),
        tensor("last_axis", [1], T.INT64, new Uint8Array(axes.buffer)),
        tensor("one", [], T.FLOAT, new Uint8Array(new Float32Array([1]).buffer)),
      ],
      node: [
        { opType: "Gather", input: ["embeddings", "input_ids"], output: ["words"], name: "words" },
        { opType: "Gather", input: ["type_embeddings", "token_type_ids"], output: ["segments"], name: "segments" },
        { opType: "Add", input: ["words", "segments"], output: ["summed"], name: "sum" },
        {
          opType: "Cast",
          input: ["attention_mask"],
          output: ["mask_float"],
          name: "cast",
          attribute: [{ name: "to", i: T.FLOAT, type: 2 }],
        },
        { opType: "Unsqueeze", input: ["mask_float", "last_axis"], output: ["mask3"], name: "unsqueeze" },
        // A padded position keeps a hidden state (as a real encoder's does): pooling must leave it out by the mask.
        { opType: "Add", input: ["mask3", "one"], output: ["factor"], name: "factor" },
        { opType: "Mul", input: ["summed", "factor"], output: ["last_hidden_state"], name: "mask" },
      ],
      input: [
        value("input_ids", T.INT64, ["batch_size", "sequence_length"]),
        value("attention_mask", T.INT64, ["batch_size", "sequence_length"]),
        value("token_type_ids", T.INT64, ["batch_size", "sequence_length"]),
      ],
      output: [value("last_hidden_state", T.FLOAT, ["batch_size", "sequence_length", TINY_DIMS])],
    },
  });
  return Buffer.from(ModelProto.encode(message).finish());
}

/** The tokenizer.json of the tiny model. */
export function tinyTokenizerJson(): Buffer {
  return bertTokenizerJson(tinyVocabulary());
}

/**
 * A BERT tokenizer.json (all-MiniLM-L6-v2's layout: BERT's normalizer and pre-tokeniser, WordPiece, the [CLS] …
 * [SEP] template) whose vocabulary is `vocabulary`, the special tokens among it.
 */
export function bertTokenizerJson(vocabulary: readonly string[]): Buffer {
  const vocab = Object.fromEntries(vocabulary.map((word, id) => [word, id]));
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const json = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [vocab["[CLS]"]], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [vocab["[SEP]"]], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab,
    },
  };
  return Buffer.from(JSON.stringify(json));
}
