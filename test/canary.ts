/**
 * A canary for the outbound guard: a TCP server on 127.0.0.2 (a loopback address that the test fakes'
 * allow list, OUTBOUND_ALLOW_PRIVATE_HOSTS=127.0.0.1, does not cover) that counts every connection made
 * to it and answers nothing. A guarded client must leave it at 0.
 *
 *   const canary = await startCanary();
 *   ... point something at canary.origin ...
 *   expect(canary.connections()).toBe(0);
 */
import net, { type AddressInfo } from "node:net";

export interface Canary {
  /** http://127.0.0.2:<port> */
  origin: string;
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startCanary(host = "127.0.0.2"): Promise<Canary> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.end("HTTP/1.1 200 OK\r\ncontent-length: 6\r\nconnection: close\r\n\r\ncanary");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
