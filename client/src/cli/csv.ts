/**
 * Rows of CSV as RFC 4180 writes them (what spreadsheets export): fields quoted
 * with `"` may hold commas, newlines and `""` for a quote; lines end in CRLF or LF;
 * a leading byte order mark is dropped. The first row names the columns.
 */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (source[i + 1] === '"') field += source[++i];
      else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  const [header, ...data] = rows.filter((cells) => cells.some((cell) => cell !== ''));
  if (!header) return [];
  const names = header.map((name) => name.trim());
  return data.map((cells) => Object.fromEntries(names.map((name, column) => [name, cells[column] ?? ''])));
}
