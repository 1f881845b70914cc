/**
 * Statements with their parameters in place: `sql\`SELECT … WHERE id = ${id}\`` keeps each value
 * beside the words that use it, and `compile` numbers the placeholders (`$1`, `$2`, …) itself, so
 * no statement numbers its parameters by hand. A value that is itself a `Sql` is spliced in as a
 * fragment (its own values renumbered); `raw` splices trusted constant text (a column list, a
 * fixed operator), never input.
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql([...strings], values);
}

/** Constant text spliced as it is: identifiers and words written in code, never a value from input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** Fragments joined by a separator (`, `, ` AND `, …). */
export function joinSql(parts: readonly Sql[], separator = ', '): Sql {
  if (parts.length === 0) return raw('');
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, index) => {
    // The separator and the part's first words join the last string so far.
    strings[strings.length - 1] += (index === 0 ? '' : separator) + part.strings[0];
    strings.push(...part.strings.slice(1));
    values.push(...part.values);
  });
  return new Sql(strings, values);
}

export interface CompiledSql {
  text: string;
  values: unknown[];
}

/** The statement text with numbered placeholders, and its values in that order. */
export function compile(query: Sql): CompiledSql {
  const values: unknown[] = [];
  const text = render(query, values);
  return { text, values };
}

function render(query: Sql, values: unknown[]): string {
  let text = query.strings[0];
  query.values.forEach((value, index) => {
    if (value instanceof Sql) text += render(value, values);
    else {
      values.push(value);
      text += `$${values.length}`;
    }
    text += query.strings[index + 1];
  });
  return text;
}
