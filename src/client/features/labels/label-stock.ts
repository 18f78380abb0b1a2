/**
 * The label stock a sheet is printed on. Sizes are the stock makers' published ones; the page
 * margins put the first label where the stock's first label is, and the grid's gaps are the
 * stock's gutters, so label N prints on label N of the sheet with the printer's "actual size".
 */
export type LabelStock = {
  id: 'letter' | 'a4' | 'single';
  /** The CSS `@page` size and margins for this stock. */
  page: { size: string; margin: string };
  columns: number;
  rows: number;
  label: { width: string; height: string };
  /** Gap between columns (the sheet's gutter); rows touch on these stocks. */
  columnGap: string;
};

export const LABEL_STOCKS: readonly LabelStock[] = [
  // Avery 5160 and its equivalents: 30 labels of 2 5/8 × 1 in on US Letter.
  {
    id: 'letter',
    page: { size: '8.5in 11in', margin: '0.5in 0.1875in' },
    columns: 3,
    rows: 10,
    label: { width: '2.625in', height: '1in' },
    columnGap: '0.125in',
  },
  // Avery L7160 and its equivalents: 21 labels of 63.5 × 38.1 mm on A4.
  {
    id: 'a4',
    page: { size: '210mm 297mm', margin: '15.15mm 7.25mm' },
    columns: 3,
    rows: 7,
    label: { width: '63.5mm', height: '38.1mm' },
    columnGap: '2.5mm',
  },
  // A label printer's roll (Zebra, Dymo, Brother): one 2.25 × 1.25 in label a page.
  {
    id: 'single',
    page: { size: '2.25in 1.25in', margin: '0' },
    columns: 1,
    rows: 1,
    label: { width: '2.25in', height: '1.25in' },
    columnGap: '0',
  },
];

export function stockById(id: string | null): LabelStock {
  return LABEL_STOCKS.find((s) => s.id === id) ?? LABEL_STOCKS[0];
}

/** Splits labels into the pages of a stock (a sheet's worth each). */
export function intoPages<T>(items: readonly T[], stock: LabelStock): T[][] {
  const perPage = stock.columns * stock.rows;
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += perPage) pages.push(items.slice(i, i + perPage));
  return pages;
}
