import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * Reads the barcodes in an image (a camera frame or a photo, drawn on a canvas): the browser's
 * own BarcodeDetector where it has one that reads QR codes (Android, ChromeOS, macOS), else
 * ZXing compiled to WebAssembly. The .wasm is a file of the app's build, served by the BFF and
 * precached by the service worker (vite.config.ts globPatterns), never fetched from elsewhere:
 * scanning works offline. Loaded on first use only (about 1 MB).
 */
export type CodeReader = (canvas: HTMLCanvasElement) => Promise<string[]>;

/** What a Trapline label (QR) or a district's trap tag (1D codes, Data Matrix) may be. */
const NATIVE_FORMATS = ['qr_code', 'data_matrix', 'code_128', 'code_39', 'ean_13', 'itf'];
const ZXING_FORMATS = ['QRCode', 'DataMatrix', 'Code128', 'Code39', 'EAN13', 'ITF'] as const;

type NativeBarcodeDetector = {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
};
type NativeBarcodeDetectorClass = {
  new (options: { formats: string[] }): NativeBarcodeDetector;
  getSupportedFormats(): Promise<string[]>;
};

async function nativeReader(): Promise<CodeReader | null> {
  const Detector = (globalThis as { BarcodeDetector?: NativeBarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  const supported = await Detector.getSupportedFormats().catch(() => [] as string[]);
  if (!supported.includes('qr_code')) return null;
  const detector = new Detector({ formats: NATIVE_FORMATS.filter((f) => supported.includes(f)) });
  return async (canvas) => (await detector.detect(canvas)).map((code) => code.rawValue);
}

async function wasmReader(): Promise<CodeReader> {
  const zxing = await import('zxing-wasm/reader');
  await zxing.prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) =>
        path.endsWith('.wasm') ? zxingWasmUrl : prefix + path,
    },
    fireImmediately: true,
  });
  return async (canvas) => {
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context || canvas.width === 0 || canvas.height === 0) return [];
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const results = await zxing.readBarcodes(image, {
      formats: [...ZXING_FORMATS],
      tryHarder: true,
      maxNumberOfSymbols: 4,
    });
    return results.filter((r) => r.isValid).map((r) => r.text);
  };
}

let reader: Promise<CodeReader> | null = null;

/** The reader of this browser, made once; a failed load is tried again on the next call. */
export function codeReader(): Promise<CodeReader> {
  reader ??= nativeReader()
    .then((native) => native ?? wasmReader())
    .catch((error: unknown) => {
      reader = null;
      throw error;
    });
  return reader;
}

/** Draws `source` on `canvas`, at most `maxSide` px on its long side (decoding time grows with it). */
export function drawScaled(
  canvas: HTMLCanvasElement,
  source: CanvasImageSource,
  width: number,
  height: number,
  maxSide = 1280,
): void {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context?.drawImage(source, 0, 0, canvas.width, canvas.height);
}
