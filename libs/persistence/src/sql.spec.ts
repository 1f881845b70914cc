import { compile, compileOnce, fromParams, joinSql, raw, sql } from './sql';

describe('sql templates', () => {
  it('numbers placeholders in order and keeps the values beside them', () => {
    const id = 'a';
    const limit = 5;
    expect(compile(sql`SELECT * FROM tasks WHERE id = ${id} LIMIT ${limit}`)).toEqual({
      text: 'SELECT * FROM tasks WHERE id = $1 LIMIT $2',
      values: ['a', 5],
    });
  });

  it('splices fragments and renumbers their values', () => {
    const where = sql`project_id = ${'p'} AND number > ${3}`;
    expect(compile(sql`SELECT id FROM tasks WHERE ${where} AND title = ${'t'}`)).toEqual({
      text: 'SELECT id FROM tasks WHERE project_id = $1 AND number > $2 AND title = $3',
      values: ['p', 3, 't'],
    });
  });

  it('joins fragments with a separator and splices constant text as it is', () => {
    const sets = joinSql([sql`title = ${'x'}`, sql`description = ${'y'}`, raw('updated_at = now()')]);
    expect(compile(sql`UPDATE tasks SET ${sets} WHERE id = ${'i'}`)).toEqual({
      text: 'UPDATE tasks SET title = $1, description = $2, updated_at = now() WHERE id = $3',
      values: ['x', 'y', 'i'],
    });
    expect(compile(sql`SELECT ${joinSql([], ' AND ')}1`)).toEqual({ text: 'SELECT 1', values: [] });
  });

  it('never turns a value into statement text', () => {
    const evil = "'; DROP TABLE tasks; --";
    const compiled = compile(sql`SELECT ${evil}`);
    expect(compiled.text).toBe('SELECT $1');
    expect(compiled.values).toEqual([evil]);
  });

  it('splices a param-callback fragment (the filters) with its values renumbered, a reused placeholder twice', () => {
    const where = fromParams((param) => {
      const v = param('p1');
      return `${v} = ${v} AND n > ${param(2)}`;
    });
    expect(compile(sql`SELECT 1 WHERE a = ${'x'} AND ${where} AND b = ${'y'}`)).toEqual({
      text: 'SELECT 1 WHERE a = $1 AND $2 = $3 AND n > $4 AND b = $5',
      values: ['x', 'p1', 'p1', 2, 'y'],
    });
    expect(compile(fromParams(() => 'TRUE'))).toEqual({ text: 'TRUE', values: [] });
  });
});

describe('compileOnce', () => {
  it('compiles the text once, one placeholder per slot name, and lines a call\'s values up', () => {
    const statement = compileOnce<'project' | 'id'>(
      (slot) => sql`SELECT ${fromParams((p) => `${p(slot('project'))} = ${p(slot('project'))}`)} WHERE id = ${slot('id')} AND k = ${'c'} AND p = ${slot('project')}`,
    );
    expect(statement.text).toBe('SELECT $1 = $1 WHERE id = $2 AND k = $3 AND p = $1');
    expect(statement.values({ project: 'p1', id: 'i1' })).toEqual(['p1', 'i1', 'c']);
    expect(statement.values({ project: 'p2', id: 'i2' })).toEqual(['p2', 'i2', 'c']);
  });
});
