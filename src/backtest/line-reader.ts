/**
 * A file read line by line in fixed-size chunks (synchronously: the run loop pulls the next
 * candle when the venue steps), so a year of candles never sits in memory as one string.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const CHUNK = 1 << 20;

/** Each line of `file` (without its `\n` or `\r\n`) with its 1-based number; `onBytes` sees every chunk read. */
export function* fileLines(file: string, onBytes?: (chunk: Buffer) => void): Generator<{ text: string; lineNo: number }> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let lineNo = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n > 0) onBytes?.(buf.subarray(0, n));
      const text = carry + (n === 0 ? decoder.end() : decoder.write(buf.subarray(0, n)));
      const parts = text.split('\n');
      carry = n === 0 ? '' : (parts.pop() as string);
      for (const p of parts) yield { text: p.endsWith('\r') ? p.slice(0, -1) : p, lineNo: ++lineNo };
      if (n === 0) return;
    }
  } finally {
    closeSync(fd);
  }
}
