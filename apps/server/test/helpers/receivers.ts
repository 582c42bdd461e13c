// Real receivers of notifications for tests: an SMTP server (smtp-server, mails parsed by
// mailparser), an HTTP webhook receiver, a Web Push endpoint that decrypts what it gets with
// the subscription's keys (RFC 8291, aes128gcm), and 'drip' receivers (HTTP and SMTP) that
// answer a byte at a time and never finish — no external service anywhere.
import { createECDH, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  url: string;
  mails: ParsedMail[];
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  // A client that goes away mid-session (a server stopped or killed) is not this server's failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  path: string;
}

export interface HttpReceiver {
  url: string;
  received: Received[];
  /** How to answer the next request: a status, or 'hang' to never answer. */
  answers: Array<number | 'hang'>;
  close(): Promise<void>;
}

/** Answers 200 unless told otherwise by `answers` (consumed one per request); `host` is the loopback address it listens on. */
export async function startReceiver(host = '127.0.0.1'): Promise<HttpReceiver> {
  const received: Received[] = [];
  const answers: Array<number | 'hang'> = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks), path: req.url ?? '' });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') hanging.push(res);
      else res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    received,
    answers,
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface DripReceiver {
  url: string;
  /** Requests received so far. */
  requests: number;
  /** Answers being dripped right now (the sender's connections held open). */
  open: number;
  /** The most answers dripped at once. */
  maxOpen: number;
  /** How long each answer lasted before the sender gave up on it (ms), in the order they ended. */
  heldMs: number[];
  close(): Promise<void>;
}

/**
 * A receiver that never finishes an answer: it sends the headers of a 200, then one byte every
 * `everyMs`, for as long as the sender keeps the connection. An idle timeout never fires on it;
 * only a deadline on the whole attempt frees the sender's slot.
 */
export async function startDripReceiver(host = '127.0.0.1', everyMs = 200): Promise<DripReceiver> {
  const drip: DripReceiver = { url: '', requests: 0, open: 0, maxOpen: 0, heldMs: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    drip.requests++;
    drip.open++;
    drip.maxOpen = Math.max(drip.maxOpen, drip.open);
    const since = Date.now();
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    const timer = setInterval(() => res.write('.'), everyMs);
    res.once('close', () => {
      clearInterval(timer);
      drip.open--;
      drip.heldMs.push(Date.now() - since);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  drip.url = `http://${host}:${port}`;
  drip.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return drip;
}

export interface DripSmtp {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** How long each connection lasted before the client closed it (ms). */
  heldMs: number[];
  close(): Promise<void>;
}

/**
 * An SMTP server that greets, then answers EHLO with continuation lines (`250-…`) one every
 * `everyMs` and never the last one: the client is never idle and never gets to send.
 */
export async function startDripSmtp(everyMs = 200): Promise<DripSmtp> {
  const sockets = new Set<net.Socket>();
  const drip: DripSmtp = { url: '', connections: 0, heldMs: [], close: async () => undefined };
  const server = net.createServer((socket) => {
    drip.connections++;
    sockets.add(socket);
    const since = Date.now();
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', () => undefined);
    socket.write('220 goteo.test ESMTP\r\n');
    socket.once('data', () => {
      timer = setInterval(() => socket.write('250-goteo.test\r\n'), everyMs);
    });
    socket.once('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      drip.heldMs.push(Date.now() - since);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  drip.url = `smtp://127.0.0.1:${port}`;
  drip.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return drip;
}

/** A browser's push keys: what PushManager.subscribe makes, and what decrypts its messages. */
export function pushKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    /** RFC 8291 decryption of one aes128gcm message. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body[20]!;
      const asPublic = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
      const secret = ecdh.computeSecret(asPublic);
      const prkKey = hmac(auth, secret);
      const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic, Buffer.from([1])]));
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      if (padded[end] !== 2) throw new Error('not the last record of an aes128gcm message');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}
