/**
 * The receivers of bench:notifications, in a process of their own so that receiving a flood of
 * webhooks and e-mails costs the load generator nothing: an HTTP webhook receiver on PORT (which
 * also answers GET /stats and POST /reset) and an SMTP server on SMTP_PORT.
 */
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const raisedAt: Record<string, number> = {};
let requests = 0;
let mails = 0;

const web = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ raisedAt, requests, mails }));
      return;
    }
    if (req.method === 'POST' && req.url === '/reset') {
      for (const k of Object.keys(raisedAt)) delete raisedAt[k];
      requests = 0;
      mails = 0;
      res.writeHead(204).end();
      return;
    }
    const at = Date.now();
    requests++;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: string; deviceId: string | null };
    if (body.event === 'raised' && body.deviceId && raisedAt[body.deviceId] === undefined) raisedAt[body.deviceId] = at;
    res.writeHead(200).end();
  });
});

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => {
      mails++;
      callback();
    });
    stream.resume();
  },
});
// A client that goes away mid-session (a server stopped at the end of a run) is not a failure here.
smtp.on('error', () => undefined);

web.listen(Number(process.env.PORT), '127.0.0.1');
smtp.listen(Number(process.env.SMTP_PORT), '127.0.0.1');
