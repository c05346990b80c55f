import type { ApiDocument, OperationEntry } from './model';
import styles from './docs.module.css';
import { Description, PropertiesTable, TypeLabel } from './schema';
import { Paragraphs } from './text';

/** One operation: method and path, what it does, its parameters, body and responses. */
export function OperationView({ document, entry }: { document: ApiDocument; entry: OperationEntry }) {
  const { method, path, operation } = entry;
  const parameters = operation.parameters ?? [];
  const body = Object.entries(operation.requestBody?.content ?? {});
  const responses = Object.entries(operation.responses ?? {});
  return (
    <article id={entry.id} className={styles.operation}>
      <h3 className={styles.signature}>
        <span className={`${styles.method} ${styles[method] ?? ''}`}>{method.toUpperCase()}</span>
        <code className={styles.path}>{path}</code>
      </h3>
      {operation.summary && <p className={styles.summary}>{operation.summary}</p>}
      <Paragraphs text={operation.description} />

      {parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <table className={styles.table}>
            <thead>
              <tr>
                <th>In</th>
                <th>Name</th>
                <th>Type</th>
                <th>Required</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {parameters.map((parameter) => (
                <tr key={`${parameter.in}-${parameter.name}`}>
                  <td>{parameter.in}</td>
                  <td>
                    <code>{parameter.name}</code>
                  </td>
                  <td>
                    <TypeLabel document={document} schema={parameter.schema} />
                  </td>
                  <td>{parameter.required ? 'yes' : 'no'}</td>
                  <td>
                    <Description document={document} schema={parameter.schema ?? {}} text={parameter.description} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      {body.map(([contentType, media]) => (
        <div key={contentType}>
          <h4>
            Request body <code className={styles.contentType}>{contentType}</code>
            {operation.requestBody?.required ? '' : ' (optional)'}
          </h4>
          {media.schema && <PropertiesTable document={document} schema={media.schema} />}
        </div>
      ))}

      <h4>Responses</h4>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Status</th>
            <th>Description</th>
            <th>Body</th>
          </tr>
        </thead>
        <tbody>
          {responses.map(([status, response]) => {
            const schema = response.content?.['application/json']?.schema;
            return (
              <tr key={status}>
                <td className={Number(status) >= 400 ? styles.error : styles.ok}>{status}</td>
                <td>
                  <Paragraphs text={response.description} className={styles.cell} />
                  {response.headers && (
                    <span className={styles.facts}>Headers: {Object.keys(response.headers).join(', ')}</span>
                  )}
                </td>
                <td>{schema ? <TypeLabel document={document} schema={schema} /> : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </article>
  );
}

