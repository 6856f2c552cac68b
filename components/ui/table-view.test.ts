import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import { TableView, type DataColumn, type DataRow } from './table-view';

// What a screen reader and a keyboard get from the shared table, read from its markup.

const COLUMNS: DataColumn[] = [
  { id: 'name', header: 'Name', sortable: true, rowHeader: true },
  { id: 'size', header: 'Size', sortable: true, numeric: true },
  { id: 'note', header: 'Note' },
];
const ROWS: DataRow[] = [
  { key: 'b', sortValues: { name: 'beta', size: 2 }, cells: ['beta', 2, 'x'] },
  { key: 'a', sortValues: { name: 'alpha', size: 10 }, cells: ['alpha', 10, 'y'] },
];

const html = (element: Parameters<typeof renderToStaticMarkup>[0]) => renderToStaticMarkup(element);

describe('the shared table', () => {
  it('is named by its caption, its row headers name the rows, and its header stays on top', () => {
    const markup = html(createElement(TableView, { columns: COLUMNS, rows: ROWS, caption: 'Things, by name' }));
    expect(markup).toContain('<caption class="sr-only">Things, by name</caption>');
    expect(markup).toMatch(/<thead class="sticky top-0/);
    expect(markup).toMatch(/<th scope="row"[^>]*>beta<\/th>/);
    expect(markup).toMatch(/<td class="[^"]*text-right[^"]*">10<\/td>/);
    // Not sortable without DataTable: plain header text, no aria-sort, no buttons.
    expect(markup).not.toContain('<button');
    expect(markup).not.toContain('aria-sort');
  });

  it('without a caption it is named by its label', () => {
    expect(html(createElement(TableView, { columns: COLUMNS, rows: ROWS, label: 'Things' }))).toContain('<table class="w-full text-left text-sm" aria-label="Things">');
  });

  it('says so when there are no rows, in one cell across every column', () => {
    const markup = html(createElement(TableView, { columns: COLUMNS, rows: [], caption: 'Things', empty: 'No things yet.' }));
    expect(markup).toMatch(/<td colSpan="3"[^>]*>No things yet\.<\/td>/i);
  });

  it('sortable headers are buttons and the sorted one says its direction', () => {
    const markup = html(createElement(DataTable, { columns: COLUMNS, rows: ROWS, caption: 'Things', initialSort: { column: 'size', descending: true } }));
    expect(markup).toMatch(/<th scope="col" aria-sort="none"[^>]*><button type="button"[^>]*>Name/);
    expect(markup).toMatch(/<th scope="col" aria-sort="descending"[^>]*><button type="button"[^>]*>Size/);
    // The note column cannot be sorted: no button, no aria-sort.
    expect(markup).toMatch(/<th scope="col" class="[^"]*">Note<\/th>/);
    // Largest first.
    expect(markup.indexOf('alpha')).toBeLessThan(markup.indexOf('beta'));
  });

  it('keeps the rows in the order given until a header is used', () => {
    const markup = html(createElement(DataTable, { columns: COLUMNS, rows: ROWS, caption: 'Things' }));
    expect(markup.indexOf('beta')).toBeLessThan(markup.indexOf('alpha'));
  });
});
