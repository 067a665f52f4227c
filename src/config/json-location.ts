/**
 * Where a JSON syntax error is, as the line and column an editor shows. Node 20's `JSON.parse`
 * names a byte offset (`at position 214`) or nothing at all (`Unexpected end of JSON input`);
 * an operator looks for a line.
 */

export interface TextLocation {
  /** 1-based line. */
  line: number;
  /** 1-based column (in UTF-16 code units, as editors count for the characters a config holds). */
  column: number;
}

/** Line and column of offset `index` in `text` (an index past the end points after the last character). */
export function locationAt(text: string, index: number): TextLocation {
  const at = Math.max(0, Math.min(index, text.length));
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}

/**
 * Location of a `JSON.parse` error in `text`: the engine's offset when it names one, else the
 * end of the text (an input cut short fails there).
 */
export function jsonErrorLocation(text: string, message: string): TextLocation {
  const m = /position (\d+)/.exec(message);
  return locationAt(text, m?.[1] === undefined ? text.length : Number.parseInt(m[1], 10));
}

/** The engine's message without its offset, which `jsonErrorLocation` turns into a line and column. */
export function jsonErrorReason(message: string): string {
  return message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '');
}
