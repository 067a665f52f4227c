/**
 * What a Markdown page says that the code can contradict: inline code spans, local links,
 * headings (for anchors) and the text of fenced blocks, each with its line number. A small
 * scanner, not a full CommonMark parser: the docs use fences, inline code, links and ATX
 * headings, and that is all the drift check reads.
 */

export interface Located {
  line: number;
  text: string;
}

export interface LinkRef {
  line: number;
  target: string;
}

export interface Fence {
  /** The info string's first word, lower case ('' when none). */
  lang: string;
  /** Lines inside the fence, each with its line number. */
  lines: Located[];
}

export interface ScannedPage {
  /** Prose lines outside fences. */
  prose: Located[];
  /** Inline code spans in prose. */
  spans: Located[];
  links: LinkRef[];
  headings: Located[];
  fences: Fence[];
}

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING_RE = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const SPAN_RE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
// [text](target) or ![alt](target), target without spaces, optional "title".
const LINK_RE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Splits a page into what the checks read. */
export function scanMarkdown(text: string): ScannedPage {
  const page: ScannedPage = { prose: [], spans: [], links: [], headings: [], fences: [] };
  let fence: { marker: string; block: Fence } | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const opener = FENCE_RE.exec(raw);
    if (fence !== undefined) {
      if (opener !== null && opener[1]!.startsWith(fence.marker) && opener[2] === '') fence = undefined;
      else fence.block.lines.push({ line, text: raw });
      return;
    }
    if (opener !== null) {
      fence = { marker: opener[1]!, block: { lang: opener[2]!.toLowerCase(), lines: [] } };
      page.fences.push(fence.block);
      return;
    }
    scanProseLine(page, raw, line);
  });
  return page;
}

function scanProseLine(page: ScannedPage, raw: string, line: number): void {
  page.prose.push({ line, text: raw });
  const heading = HEADING_RE.exec(raw);
  if (heading !== null) page.headings.push({ line, text: heading[1]! });
  for (const m of raw.matchAll(SPAN_RE)) page.spans.push({ line, text: m[2]!.trim() });
  const withoutCode = raw.replace(SPAN_RE, (m) => ' '.repeat(m.length));
  for (const m of withoutCode.matchAll(LINK_RE)) page.links.push({ line, target: m[1]! });
}

/**
 * GitHub's heading anchor: markup dropped, lower case, every character that is not a letter,
 * mark, number, connector, space or hyphen removed, spaces turned into hyphens; a repeated
 * anchor gets -1, -2, ... (github-slugger).
 */
export function headingSlugs(headings: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const heading of headings) {
    const base = slugOf(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

export function slugOf(heading: string): string {
  const plain = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
  return plain
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
