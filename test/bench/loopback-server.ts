/**
 * The client bench's server, in its own process so that the bench's CPU figures are the
 * client's alone: a bare keep-alive node:http server on 127.0.0.1 answering the main balance
 * and the bulk of 20 with fixed replies. Prints its port on stdout, exits when stdin closes.
 *   node --import tsx test/bench/loopback-server.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BALANCE_PATH, BULK_PATH, balanceReply, bulkReply } from './client-fixture.js';

const replies = new Map<string, string>([
  [BALANCE_PATH, balanceReply],
  [BULK_PATH, bulkReply],
]);

const server = http.createServer({ keepAlive: true }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const body = replies.get(req.url ?? '') ?? '{}';
    res.writeHead(replies.has(req.url ?? '') ? 200 : 404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
