import { encode } from 'uqr';

/**
 * A QR code as SVG: one path of dark modules on a white square, drawn crisp at any print size
 * (`shape-rendering: crispEdges`). Error correction M: a label rubbed in a cooler still reads.
 * A 3-module quiet zone: a label is small, and the decoders read 3 as well as the standard 4.
 */
export function QrCode({ value, title }: { value: string; title: string }) {
  const qr = encode(value, { ecc: 'M', border: 3 });
  let d = '';
  qr.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      role="img"
      aria-label={title}
      shapeRendering="crispEdges"
      data-qr={value}
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
