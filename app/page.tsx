import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>Task API</h1>
      <p>Read and write the tasks, comments and attachments of your workspace&apos;s projects over HTTP and JSON.</p>
      <ul>
        <li>
          <Link href="/docs">API reference</Link> (also as <a href="/v1/public/openapi.json">OpenAPI 3.1</a>)
        </li>
        <li>
          <Link href="/settings/api-keys">API keys</Link>: workspace admins issue and revoke keys
        </li>
      </ul>
      <pre>curl -H &quot;Authorization: Bearer $TASK_API_KEY&quot; {'<base-url>'}/v1/public/web/tasks</pre>
    </main>
  );
}
