// Whether an error means "the database cannot answer right now" (down, restarting, connection cut, pool
// exhausted, or too busy: a transaction that could not start or finish in its time, a lock or deadlock that gave
// way), as opposed to a bad query. Such failures are answered 503 `database_unavailable` with Retry-After rather
// than 500: the pool reconnects on its own once PostgreSQL is back, and the same request succeeds once the load
// has passed.

/**
 * Prisma's codes for an unreachable server, a timed-out connect, a closed connection, a pool timeout, an interactive
 * transaction that could not start or expired under load (P2028), a write conflict or deadlock (P2034).
 */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024", "P2028", "P2034"]);
/** The driver adapter's error kinds (@prisma/adapter-pg) that say the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
/** A Unix socket that is not there (the embedded database's thread restarting): ENOENT from connect. */
const MISSING_SOCKET = { code: "ENOENT", syscall: "connect" };
/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash shutdown, cannot connect now), 53300 (too
 * many connections), 40001 and 40P01 (serialization failure, deadlock: the transaction may simply run again), 55P03
 * (a lock not available in time).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300|40001|40P01|55P03)$/;
/** pg's own errors for a connection the server dropped, and Prisma's for one it could not open. */
const MESSAGES =
  /Connection terminated|Can't reach database server|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (shutting down|starting up|in recovery mode)/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; code?: unknown } } };
    message?: unknown;
    cause?: unknown;
    name?: unknown;
    syscall?: unknown;
  };
  if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || SQLSTATE.test(e.code)))
    return true;
  if (e.code === MISSING_SOCKET.code && e.syscall === MISSING_SOCKET.syscall) return true;
  const adapter = e.meta?.driverAdapterError?.cause;
  if (adapter) {
    if (typeof adapter.kind === "string" && ADAPTER_KINDS.has(adapter.kind)) return true;
    for (const code of [adapter.code, adapter.originalCode])
      if (typeof code === "string" && SQLSTATE.test(code)) return true;
  }
  if (e.name === "PrismaClientInitializationError") return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
