// A static model's matrix as Model2Vec writes it, for the tests that read one.

/** A safetensors file of one matrix named `embeddings`, as Model2Vec writes it. */
export function safetensors(rows: number[][], dtype: "F32" | "F16"): Buffer {
  const dims = rows[0]!.length;
  const width = dtype === "F32" ? 4 : 2;
  const data = Buffer.alloc(rows.length * dims * width);
  rows.flat().forEach((x, i) => {
    if (dtype === "F32") data.writeFloatLE(x, i * 4);
    // Half precision of the few values used here (0, ±0.5, ±1, 2): exact.
    else data.writeUInt16LE(x === 0 ? 0 : (x < 0 ? 0x8000 : 0) | ((Math.log2(Math.abs(x)) + 15) << 10), i * 2);
  });
  const header = Buffer.from(
    JSON.stringify({
      __metadata__: { format: "pt" },
      embeddings: { dtype, shape: [rows.length, dims], data_offsets: [0, data.length] },
    }),
  );
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, data]);
}
