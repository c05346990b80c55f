import type { Metadata } from 'next';
import { openApiDocument } from '@/server/api/openapi';
import styles from './docs.module.css';
import { operationsByTag, schemaAnchor, type ApiDocument } from './model';
import { OperationView } from './operation';
import { SchemaSection } from './schema';
import { InlineText, Paragraphs } from './text';

export const metadata: Metadata = {
  title: 'API reference · Task API',
  description: 'Every operation of the public task API: parameters, bodies, responses and schemas.',
};

// The document is built from the code: the page is rendered once, at build time.
export const dynamic = 'force-static';

/** The OpenAPI document as a readable page: plain HTML, no client code, nothing fetched. */
export default function DocsPage() {
  const document = openApiDocument() as unknown as ApiDocument;
  const groups = operationsByTag(document);
  const schemas = Object.entries(document.components?.schemas ?? {});
  const securitySchemes = Object.entries(document.components?.securitySchemes ?? {});
  const baseUrl = document.servers?.[0]?.url ?? '/';

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1>{document.info.title}</h1>
        <p className={styles.muted}>
          Version <code>{document.info.version}</code> · base path <code>{baseUrl}</code> · also as{' '}
          <a href="/v1/public/openapi.json">OpenAPI {document.openapi}</a>
        </p>
      </header>

      <nav className={styles.toc} aria-label="Contents">
        <h2>Contents</h2>
        <ul>
          <li>
            <a href="#introduction">Authentication and rate limits</a>
          </li>
          {groups.map(([tag, entries]) => (
            <li key={tag}>
              <a href={`#tag-${tag}`}>{tag}</a>
              <ul>
                {entries.map((entry) => (
                  <li key={entry.id}>
                    <a href={`#${entry.id}`}>
                      <span className={styles.tocMethod}>{entry.method.toUpperCase()}</span> {entry.path}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li>
            <a href="#schemas">Schemas</a>
          </li>
        </ul>
      </nav>

      <section id="introduction" className={styles.intro}>
        <h2>Authentication and rate limits</h2>
        <Paragraphs text={document.info.description} />
        {securitySchemes.length > 0 && (
          <>
            <p>Send the key in either of these ways:</p>
            <ul>
              {securitySchemes.map(([name, scheme]) => (
                <li key={name}>
                  <code>{name}</code>:{' '}
                  {scheme.type === 'http' ? (
                    <>
                      <code>Authorization: {capitalize(scheme.scheme ?? '')} &lt;key&gt;</code>
                    </>
                  ) : (
                    <>
                      header <code>{scheme.name}: &lt;key&gt;</code>
                    </>
                  )}
                  {scheme.description && scheme.type !== 'http' && (
                    <>
                      {' — '}
                      <InlineText text={scheme.description} />
                    </>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      {groups.map(([tag, entries]) => (
        <section key={tag} id={`tag-${tag}`} className={styles.tag}>
          <h2>{tag}</h2>
          {entries.map((entry) => (
            <OperationView key={entry.id} document={document} entry={entry} />
          ))}
        </section>
      ))}

      <section id="schemas" className={styles.tag}>
        <h2>Schemas</h2>
        <p className={styles.muted}>
          {schemas.map(([name], index) => (
            <span key={name}>
              {index > 0 && ' · '}
              <a href={`#${schemaAnchor(name)}`}>{name}</a>
            </span>
          ))}
        </p>
        {schemas.map(([name, schema]) => (
          <SchemaSection key={name} document={document} name={name} schema={schema} />
        ))}
      </section>
    </main>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
