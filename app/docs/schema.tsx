import { constraints, describe, refName, resolve, schemaAnchor, type ApiDocument, type Schema } from './model';
import styles from './docs.module.css';
import { InlineText, Paragraphs } from './text';

/** A schema's type as a reader says it: `string (uuid)`, `array of Task`, `Priority | null`. */
export function TypeLabel({ document, schema }: { document: ApiDocument; schema: Schema | undefined }) {
  if (!schema) return <span className={styles.type}>any</span>;
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a className={styles.type} href={`#${schemaAnchor(name)}`}>
        {name}
      </a>
    );
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    return (
      <>
        {variants.map((variant, index) => (
          <span key={index}>
            {index > 0 && ' | '}
            <TypeLabel document={document} schema={variant} />
          </span>
        ))}
      </>
    );
  }
  if (schema.type === 'array' || schema.items) {
    return (
      <span className={styles.type}>
        array of <TypeLabel document={document} schema={schema.items} />
      </span>
    );
  }
  if (schema.const !== undefined) return <span className={styles.type}>{JSON.stringify(schema.const)}</span>;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? (schema.enum ? 'string' : 'any'));
  return <span className={styles.type}>{schema.format ? `${type} (${schema.format})` : type}</span>;
}

/** The properties of an object schema: name, type, required, description and rules. */
export function PropertiesTable({ document, schema }: { document: ApiDocument; schema: Schema }) {
  const target = resolve(document, schema);
  const properties = Object.entries(target.properties ?? {});
  if (properties.length === 0) return null;
  const required = new Set(target.required ?? []);
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th>Field</th>
          <th>Type</th>
          <th>Required</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {properties.map(([name, property]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <TypeLabel document={document} schema={property} />
            </td>
            <td>{required.has(name) ? 'yes' : 'no'}</td>
            <td>
              <Description document={document} schema={property} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Description({ document, schema, text }: { document: ApiDocument; schema?: Schema; text?: string }) {
  const description = text ?? describe(document, schema);
  const facts = schema ? constraints(document, schema) : [];
  return (
    <>
      {description && <InlineText text={description} />}
      {facts.length > 0 && <span className={styles.facts}>{description ? ' ' : ''}({facts.join('; ')})</span>}
    </>
  );
}

/** One entry of the components section. */
export function SchemaSection({ document, name, schema }: { document: ApiDocument; name: string; schema: Schema }) {
  return (
    <section id={schemaAnchor(name)} className={styles.schema}>
      <h3>{name}</h3>
      <Paragraphs text={schema.description} className={styles.muted} />
      {schema.properties ? (
        <PropertiesTable document={document} schema={schema} />
      ) : (
        <p>
          <TypeLabel document={document} schema={schema} />
          {schema.enum && (
            <>
              {': '}
              {schema.enum.map((value, index) => (
                <span key={String(value)}>
                  {index > 0 && ', '}
                  <code>{String(value)}</code>
                </span>
              ))}
            </>
          )}
        </p>
      )}
    </section>
  );
}
