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

/**
 * A fragment from a builder that registers its values through a `param` callback (the filter
 * plan's `filterPlanSql`), so its values travel as bind parameters of the template it is spliced
 * into. A marker stands for each value until the text is split; a placeholder used twice carries
 * its value twice.
 */
export function fromParams(build: (param: (value: unknown) => string) => string): Sql {
  const registered: unknown[] = [];
  const text = build((value) => `\u0000${registered.push(value) - 1}\u0000`);
  const parts = text.split(/\u0000(\d+)\u0000/);
  return new Sql(
    parts.filter((_, i) => i % 2 === 0),
    parts.filter((_, i) => i % 2 === 1).map((index) => registered[Number(index)]),
  );
}

/** Where a call's value goes in a statement compiled once (`compileOnce`). */
class Slot {
  constructor(readonly name: string) {}
}

/** A statement compiled once: its fixed text and the values of one call in placeholder order. */
export interface Precompiled<K extends string> {
  readonly text: string;
  values(named: Readonly<Record<K, unknown>>): unknown[];
}

/**
 * A hot statement written as a `sql` template once, with `slot(name)` where each call's value
 * goes: it compiles at load, one placeholder per name however often the name is used, so a call
 * builds no text (only lines its values up) and the fixed text stays one named prepared
 * statement. Other values in the template are constants, bound at every call.
 */
export function compileOnce<K extends string>(build: (slot: (name: K) => unknown) => Sql): Precompiled<K> {
  const order: ({ slot: K } | { value: unknown })[] = [];
  const numbers = new Map<string, number>();
  const render = (query: Sql): string => {
    let text = query.strings[0];
    query.values.forEach((value, index) => {
      if (value instanceof Sql) text += render(value);
      else if (value instanceof Slot) {
        let n = numbers.get(value.name);
        if (n === undefined) numbers.set(value.name, (n = order.push({ slot: value.name as K })));
        text += `$${n}`;
      } else text += `$${order.push({ value })}`;
      text += query.strings[index + 1];
    });
    return text;
  };
  const text = render(build((name) => new Slot(name)));
  return { text, values: (named) => order.map((o) => ('slot' in o ? named[o.slot] : o.value)) };
}
