import { describe, expect, it } from 'vitest';
import type { SentStatement } from '../support/pg-counter';
import { statementDifference } from './same-statements';

const KEY: SentStatement = { text: 'SELECT k.id FROM api_key k WHERE k.key_hash = $1', params: ['ab12'] };
const PAGE = (total: string, project = 'p1'): SentStatement => ({
  text: `SELECT ${total} AS total, ARRAY(SELECT t.id FROM task t WHERE t.project_id = $1::uuid LIMIT $2) AS ids`,
  params: [project, '21'],
});
const MAINTAINED = '(SELECT coalesce(sum(c.tasks), 0) FROM task_count c WHERE c.project_id = $1::uuid)';
const COUNTED = '(SELECT count(*) FROM task t WHERE t.project_id = $1::uuid)';
const twice = (statements: SentStatement[]): [SentStatement[], SentStatement[]] => [statements, statements];

describe('statementDifference', () => {
  it('finds none between statements that differ in whitespace alone', () => {
    const spaced = { ...KEY, text: 'SELECT k.id\n    FROM api_key k   WHERE k.key_hash = $1' };
    expect(statementDifference(twice([KEY, PAGE(MAINTAINED)]), twice([spaced, PAGE(MAINTAINED)]))).toBeNull();
  });

  it('names the statement where the floor counts rows and ours reads the maintained counts', () => {
    const difference = statementDifference(twice([KEY, PAGE(MAINTAINED)]), twice([KEY, PAGE(COUNTED)]));
    expect(difference).toContain('differ at statement 2');
    expect(difference).toContain(`ours:  SELECT (SELECT coalesce(sum(c.tasks), 0) FROM task_count c WHERE c.project_id = 'p1'::uuid)`);
    expect(difference).toContain(`floor: SELECT (SELECT count(*) FROM task t WHERE t.project_id = 'p1'::uuid)`);
  });

  it('compares the values bound to the same text', () => {
    expect(statementDifference(twice([KEY, PAGE(MAINTAINED)]), twice([KEY, PAGE(MAINTAINED, 'p2')]))).toContain('differ at statement 2');
  });

  it('leaves out a value that each side makes anew for every request', () => {
    const insert = (id: string): SentStatement => ({ text: 'INSERT INTO task (id, title) VALUES ($1, $2)', params: [id, 'Title'] });
    expect(statementDifference([[insert('a')], [insert('b')]], [[insert('c')], [insert('d')]])).toBeNull();
  });

  it('compares a value made anew on one side only with what the other sends', () => {
    const insert = (id: string): SentStatement => ({ text: 'INSERT INTO task (id, title) VALUES ($1, $2)', params: [id, 'Title'] });
    expect(statementDifference([[insert('a')], [insert('b')]], twice([insert('c')]))).toContain('differ at statement 1');
  });

  it('reads a time as the instant it names, with or without a zone', () => {
    const stamp = (value: string): SentStatement => ({ text: 'SELECT $1::timestamptz', params: [value] });
    expect(statementDifference(twice([stamp('2026-11-27 14:10:00.123')]), twice([stamp('2026-11-27T15:10:00.123+01:00')]))).toBeNull();
    expect(statementDifference(twice([stamp('2026-11-27 14:10:00.123')]), twice([stamp('2026-11-27T14:10:00.123+01:00')]))).not.toBeNull();
  });

  it('says when the floor sends fewer statements', () => {
    const difference = statementDifference(twice([KEY, PAGE(MAINTAINED), KEY]), twice([KEY, PAGE(MAINTAINED)]));
    expect(difference).toContain('ours sends 3 statements, the floor 2; they differ at statement 3');
    expect(difference).toContain('floor: (none)');
  });
});
