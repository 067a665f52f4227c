/**
 * The docs cannot drift from the code: every Markdown page of the repository is read, and each
 * path, `Name.member`, local link (with its anchor) and `npm run` script it names must exist.
 * A failure lists every problem as `file:line: what (nearest: x)`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPage, type Problem } from '../../support/docs-drift/checks.js';
import { loadRepo, markdownPages } from '../../support/docs-drift/repo.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const repo = loadRepo(root);
const pages = markdownPages(repo);

function format(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n');
}

describe('the docs match the code', () => {
  it('reads the README, the manual and every other page', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/README.md');
    expect(pages).toContain('docs/architecture.md');
    expect(pages.some((p) => p.startsWith('node_modules/') || p.startsWith('dist/'))).toBe(false);
  });

  it.each(pages)('%s names only paths, members, links and scripts that exist', (page) => {
    const problems = checkPage(repo, page, readFileSync(join(root, page), 'utf8'));
    expect(format(problems)).toBe('');
  });

  it('every docs page a source file cites exists', () => {
    const cited: string[] = [];
    for (const file of [...repo.files].filter((f) => /^(src|strategies)\/.*\.ts$/.test(f) || f === 'ecosystem.config.cjs').sort()) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/docs\/[\w./-]+\.md/g)) if (!repo.files.has(m[0])) cited.push(`${file}:${i + 1}: ${m[0]}`);
        });
    }
    expect(cited, 'source lines citing a docs page that does not exist').toEqual([]);
  });

  it('the manual index lists every page of docs/', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const missing = pages
      .filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')
      .filter((p) => !index.includes(`](${p.slice('docs/'.length)})`));
    expect(missing, 'pages of docs/ that docs/README.md does not link').toEqual([]);
  });
});
