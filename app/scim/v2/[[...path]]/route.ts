import { unknownScimPath } from "@/lib/scim/http";

// /scim/v2 itself and any path under it no other route file serves: 404 in SCIM's shape, for every method.
export const GET = unknownScimPath;
export const HEAD = unknownScimPath;
export const POST = unknownScimPath;
export const PUT = unknownScimPath;
export const PATCH = unknownScimPath;
export const DELETE = unknownScimPath;
export const OPTIONS = unknownScimPath;
