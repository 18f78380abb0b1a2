import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/shared/escape-html';

describe('escapeHtml', () => {
  it('writes markup and quotes as text, and leaves other text as it is', () => {
    expect(escapeHtml(`Delta County GIS <b>2026</b> & "OSM" 'contributors'`)).toBe(
      'Delta County GIS &lt;b&gt;2026&lt;/b&gt; &amp; &quot;OSM&quot; &#39;contributors&#39;',
    );
    expect(escapeHtml('^\\d{6}$ — Cx. tarsalis')).toBe('^\\d{6}$ — Cx. tarsalis');
    expect(escapeHtml(42)).toBe('42');
  });
});
