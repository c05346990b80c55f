import type { SentStatement } from '../support/pg-counter';

/**
 * Whether the floor sends what the product sends for one request: the same
 * statements, in the same order, each with the same text (whitespace aside) and
 * the same values. Each side's request is captured twice, identically: a value
 * that differs between a side's two captures is made per request (a new task's
 * id) and is compared as `<varies>`; every other value must be equal, timestamps
 * as the instants they name (Prisma's adapter and pg write them differently).
 * Null when they agree, else what differs, for a message that stops the run.
 */
export function statementDifference(ours: [SentStatement[], SentStatement[]], floor: [SentStatement[], SentStatement[]]): string | null {
  const oursShown = shown(ours);
  const floorShown = shown(floor);
  const at = oursShown.findIndex((statement, i) => statement !== floorShown[i]);
  const index = at >= 0 ? at : oursShown.length < floorShown.length ? oursShown.length : -1;
  if (index < 0) return null;
  const mine = oursShown[index];
  const theirs = floorShown[index];
  const lines = [
    `ours sends ${oursShown.length} statements, the floor ${floorShown.length}; they differ at statement ${index + 1}:`,
    `  ours:  ${mine ?? '(none)'}`,
    `  floor: ${theirs ?? '(none)'}`,
  ];
  if (mine !== undefined && theirs !== undefined) {
    const char = [...mine].findIndex((c, i) => c !== theirs[i]);
    const from = Math.max(0, (char < 0 ? Math.min(mine.length, theirs.length) : char) - 20);
    lines.push(`  from character ${from + 1}: ours "${mine.slice(from, from + 60)}", floor "${theirs.slice(from, from + 60)}"`);
  }
  return lines.join('\n');
}

/** Each statement's text, whitespace collapsed, with its values in place of $1, $2…: as it was run. */
function shown([first, second]: [SentStatement[], SentStatement[]]): string[] {
  return first.map((statement, i) => {
    const again = second[i]?.params;
    return statement.text
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\$(\d+)/g, (placeholder, n: string) => {
        const index = Number(n) - 1;
        if (index >= statement.params.length) return placeholder;
        const value = statement.params[index]!;
        return again && again[index] !== value ? '<varies>' : literal(value);
      });
  });
}

const TIMESTAMP = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d(?::?\d\d)?)?$/;

function literal(value: string | null): string {
  if (value === null) return 'NULL';
  const time = TIMESTAMP.exec(value);
  // Prisma's adapter sends a time in UTC without a zone, pg with the process's offset: both name one instant.
  const instant = time ? new Date(`${time[1]}T${time[2]}${time[3] ?? 'Z'}`) : null;
  const text = instant && !Number.isNaN(instant.getTime()) ? instant.toISOString() : value;
  return `'${text.replaceAll("'", "''")}'`;
}
