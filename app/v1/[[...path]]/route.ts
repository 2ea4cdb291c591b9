import { unknownApiPath } from "@/lib/http/unknown-path";

// /v1 itself and any /v1 path no other route file serves: 404 in the contract's shape, for every method.
export const GET = unknownApiPath;
export const HEAD = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
