import { createServer } from 'node:http';

/** The ceiling: a bare node:http server answering a fixed 2 KB JSON body, as fast as this machine serves HTTP. */
const body = JSON.stringify({
  events: Array.from({ length: 12 }, (_, i) => ({
    id: `event-${i}`,
    title: 'A fixed event title for the ceiling',
    start: '2026-12-03T17:30:00.000Z',
    city: 'Zürich',
  })),
}).padEnd(2048, ' ');
const port = Number(process.argv[2] ?? 0);
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(port, '127.0.0.1', () => process.send?.('ready'));
