import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The text of a PDF as a reader would copy it, by poppler's pdftotext (Debian's poppler-utils,
 * which .ci/run installs), in reading order (`-layout` keeps a table's row on one line).
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'trapline-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Page `page` of a PDF as a PNG at `dpi`, as a printer would put it on paper (poppler's
 * pdftoppm); `crop` in inches from the page's top left: one label of a sheet.
 */
export async function pdfPagePng(
  pdf: Buffer,
  {
    page = 1,
    dpi = 200,
    crop,
  }: {
    page?: number;
    dpi?: number;
    crop?: { x: number; y: number; width: number; height: number };
  } = {},
): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'trapline-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    await writeFile(file, pdf);
    const px = (inches: number) => String(Math.round(inches * dpi));
    const area = crop
      ? ['-x', px(crop.x), '-y', px(crop.y), '-W', px(crop.width), '-H', px(crop.height)]
      : [];
    const args = [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      ...area,
      file,
      join(dir, 'page'),
    ];
    await promisify(execFile)('pdftoppm', args);
    return await readFile(join(dir, 'page.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
