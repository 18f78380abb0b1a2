/**
 * Counts the rows of an export as its bytes go by, without keeping them: CSV records (line ends
 * outside quotes, the header excepted) or GeoJSON features (the BFF writes one per line, and
 * JSON text never holds a raw line break). The count is of what was received, so the outcome the
 * panel shows is what the file holds.
 */
export function rowCounter(kind: 'csv' | 'geojson') {
  const decoder = new TextDecoder();
  let records = 0;
  let quoted = false;
  let line = '';
  return {
    push(bytes: Uint8Array, end = false): void {
      const text = decoder.decode(bytes, { stream: !end });
      if (kind === 'csv') {
        for (let i = 0; i < text.length; i++) {
          const ch = text.charCodeAt(i);
          if (ch === 34)
            quoted = !quoted; // a doubled quote toggles twice
          else if (ch === 10 && !quoted) records += 1;
        }
        return;
      }
      const lines = (line + text).split('\n');
      line = lines.pop() ?? '';
      for (const l of lines) if (l.startsWith('{"type":"Feature"')) records += 1;
    },
    rows(): number {
      return kind === 'csv' ? Math.max(0, records - 1) : records;
    },
  };
}
