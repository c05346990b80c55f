'use client';

import '@scalar/api-reference-react/style.css';
import type { ApiReferenceReact as ScalarReference } from '@scalar/api-reference-react';
import dynamic from 'next/dynamic';
import type { ComponentProps } from 'react';

type Configuration = ComponentProps<typeof ScalarReference>['configuration'];

// Scalar builds its page in the browser (Vue inside a React wrapper): on the server it would only render an empty div.
const ApiReferenceReact = dynamic(() => import('@scalar/api-reference-react').then((module) => module.ApiReferenceReact), {
  ssr: false,
  loading: () => <p style={{ padding: '2rem 1.25rem' }}>Loading the API reference…</p>,
});

/**
 * Everything Scalar would fetch from its own services is off (fonts, telemetry, its agent
 * and proxy): the page loads its script, styles and the document from this origin only,
 * and try-it calls the API directly. Snippets: curl, JavaScript and Python.
 */
const CONFIGURATION: Omit<Configuration, 'url'> = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  // A reference is read top to bottom: every operation shown, not only the first group's.
  defaultOpenAllTags: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  hiddenClients: {
    c: true,
    clojure: true,
    csharp: true,
    dart: true,
    fsharp: true,
    go: true,
    http: true,
    java: true,
    julia: true,
    kotlin: true,
    objc: true,
    ocaml: true,
    php: true,
    powershell: true,
    r: true,
    ruby: true,
    rust: true,
    swift: true,
    shell: ['httpie', 'wget'],
    js: ['jquery', 'xhr', 'axios', 'ofetch'],
    node: ['undici', 'axios', 'ofetch'],
    python: ['python3', 'aiohttp', 'httpx_async'],
  },
};

export function ApiReference({ documentUrl }: { documentUrl: string }) {
  return <ApiReferenceReact configuration={{ ...CONFIGURATION, url: documentUrl }} />;
}
