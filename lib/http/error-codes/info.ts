// What the closed list (../error-codes.ts) says of each code.

export interface ErrorCodeInfo {
  readonly status: number;
  /** The same request may work later (the platform, the network or this server, not the request). */
  readonly retryable: boolean;
  readonly meaning: string;
}
