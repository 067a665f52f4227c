/** The one HTML escaper of the pages (dashboard shell, backtest report) and the script-safe JSON. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript } from '../../../src/web/html.js';

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or close a quoted attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&amp;`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;');
    expect(escapeHtml('BTC_USDT grid-1')).toBe('BTC_USDT grid-1');
  });

  it('leaves no raw markup character in any text, and decodes back to the text', () => {
    const decode = (s: string): string =>
      s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = escapeHtml(text);
        expect(out).not.toMatch(/[<>"']/);
        expect(decode(out)).toBe(text);
      }),
    );
  });
});

describe('jsonForScript', () => {
  it('cannot end its script element or open a comment, and parses back unchanged', () => {
    const value = { a: '</script><!-- x', b: '&>', c: '\u2028\u2029' };
    const out = jsonForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});
