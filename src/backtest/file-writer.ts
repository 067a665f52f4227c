/**
 * A file written in pieces: text is gathered up to a chunk and written with one system call, so
 * a large output (a year's result.json) is never one string in memory.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/** Characters gathered before a write (the outputs are ASCII but for rare escapes: about as many bytes). */
const CHUNK = 1 << 16;

export class FileWriter {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) this.flush();
  }

  /** Appends the whole of `file` (text written earlier, e.g. by another FileWriter), read a chunk at a time. */
  copyFrom(file: string): void {
    this.flush();
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.allocUnsafe(CHUNK * 4);
      for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) this.writeBytes(buf, n);
    } finally {
      closeSync(fd);
    }
  }

  /** Writes what is gathered and closes the file; the file is closed even when the last write fails. */
  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }

  private flush(): void {
    if (this.size === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    this.writeBytes(buf, buf.length);
  }

  private writeBytes(buf: Buffer, length: number): void {
    let off = 0;
    while (off < length) off += writeSync(this.fd, buf, off, length - off);
  }
}

/** Writes to `file` through a FileWriter; the file is closed whatever `fill` does. */
export function writeFileInPieces(file: string, fill: (w: FileWriter) => void): void {
  const w = new FileWriter(file);
  let done = false;
  try {
    fill(w);
    done = true;
  } finally {
    if (done) w.close();
    else closeQuietly(w);
  }
}

function closeQuietly(w: FileWriter): void {
  try {
    w.close();
  } catch {
    // The error that stopped the writing is the one that matters.
  }
}
