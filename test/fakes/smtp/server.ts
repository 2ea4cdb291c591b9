/**
 * A fake SMTP server for the mail setup check: a real node:net server on 127.0.0.1 (port 0) that speaks the
 * part of SMTP (RFC 5321, AUTH PLAIN of RFC 4954) a client's `verify()` uses: the 220 greeting, EHLO/HELO,
 * AUTH PLAIN (one user and password; anything else 535), NOOP, RSET and QUIT. No STARTTLS is offered, no mail
 * is accepted (MAIL FROM gets 502) unless `acceptMail` is set: then MAIL, RCPT and DATA are taken and each message kept
 * in `mails`. Hand-written because it is this small: smtp-server is not in the tree, and a
 * new package for five verbs would touch every branch's lockfile.
 *
 *   const smtp = await startFakeSmtp({ user: "verbatim", pass: "secret" });
 *   process.env.SMTP_URL = `smtp://verbatim:secret@127.0.0.1:${smtp.port}`;
 *   smtp.commands   // what clients sent ("EHLO …", "AUTH PLAIN <redacted>", "QUIT")
 *   await smtp.close();
 *
 * `npx tsx test/fakes/smtp/server.ts <port>` keeps one running (user verbatim, password secret).
 */
import net from "node:net";

export interface FakeSmtp {
  port: number;
  /** Every command line received; AUTH lines with the credentials replaced. */
  commands: string[];
  /** With `acceptMail`: each message's recipients and its DATA (headers and body, dot-stuffing undone). */
  mails: { to: string[]; data: string }[];
  close(): Promise<void>;
}

export async function startFakeSmtp(
  credentials: { user: string; pass: string } = { user: "verbatim", pass: "secret" },
  listenPort = 0,
  { acceptMail = false }: { acceptMail?: boolean } = {},
): Promise<FakeSmtp> {
  const commands: string[] = [];
  const mails: { to: string[]; data: string }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp.test ESMTP ready");
    let buffered = "";
    let recipients: string[] = [];
    let data: string[] | null = null;
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("latin1");
      let end: number;
      while ((end = buffered.indexOf("\r\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (data) {
          if (line === ".") {
            mails.push({ to: recipients, data: Buffer.from(data.join("\r\n"), "latin1").toString("utf8") });
            data = null;
            recipients = [];
            reply("250 2.0.0 Queued");
          } else data.push(line.startsWith("..") ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(" ")[0]!.toUpperCase();
        commands.push(verb === "AUTH" ? line.replace(/^(AUTH \S+).*/i, "$1 <redacted>") : line);
        if (verb === "EHLO") {
          reply("250-fake-smtp.test greets you");
          reply("250-AUTH PLAIN");
          reply("250 8BITMIME");
        } else if (verb === "HELO") reply("250 fake-smtp.test");
        else if (verb === "AUTH") {
          const [, method, encoded] = line.split(" ");
          const [, user, pass] = Buffer.from(encoded ?? "", "base64")
            .toString("utf8")
            .split("\u0000");
          if (method?.toUpperCase() === "PLAIN" && user === credentials.user && pass === credentials.pass)
            reply("235 2.7.0 Authentication successful");
          else reply("535 5.7.8 Authentication credentials invalid");
        } else if (verb === "NOOP" || verb === "RSET") reply("250 OK");
        else if (acceptMail && verb === "MAIL") reply("250 2.1.0 OK");
        else if (acceptMail && verb === "RCPT") {
          recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 2.1.5 OK");
        } else if (acceptMail && verb === "DATA") {
          data = [];
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 Bye");
          socket.end();
        } else reply("502 5.5.1 Command not implemented");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    commands,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const smtp = await startFakeSmtp(undefined, Number(process.argv[2] ?? 0));
  console.log(`fake SMTP on 127.0.0.1:${smtp.port} (user verbatim, password secret)`);
}
