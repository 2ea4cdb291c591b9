import dns2 from "dns2";

// A real DNS server for the tests (dns2's UDP server, on a free port of 127.0.0.1): it answers TXT questions from
// the records the test publishes, NXDOMAIN for any other name, as an authoritative server would. DNS_SERVERS points
// the app's resolver at it.

export interface TestDnsServer {
  /** `host:port`, for DNS_SERVERS. */
  address: string;
  /** Publishes (replaces) the TXT records of `name`; an empty list removes the name. */
  setTxt(name: string, records: string[]): void;
  close(): Promise<void>;
}

const { Packet } = dns2;

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const records = zone.get(question.name.toLowerCase());
      if (!records) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question.type === Packet.TYPE.TXT)
        for (const data of records) {
          const answer = { name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    setTxt(name, records) {
      if (records.length === 0) zone.delete(name.toLowerCase());
      else zone.set(name.toLowerCase(), records);
    },
    close: async () => {
      await server.close();
    },
  };
}
