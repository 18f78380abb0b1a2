/** What one change did, a sentence a line; nothing at all when there is nothing to add. */
export function Sentences({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="history-changes">
      {lines.map((sentence, i) => (
        <li key={i}>{sentence}</li>
      ))}
    </ul>
  );
}
