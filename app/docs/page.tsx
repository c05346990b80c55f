import type { Metadata } from 'next';
import { ApiReference } from './api-reference';

export const metadata: Metadata = {
  title: 'API reference · Task API',
  description: 'Every operation of the public task API, with examples, code snippets and a console to try them against this server.',
};

/** Scalar's renderer over the served document: what it shows is what /v1/public/openapi.json says. */
export default function DocsPage() {
  return <ApiReference documentUrl="/v1/public/openapi.json" />;
}
