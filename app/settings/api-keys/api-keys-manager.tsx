'use client';

import { useState } from 'react';
import type { KeyView } from '@/server/settings/key-view';
import type { LastDay } from '@/server/usage/last-day';
import { Section } from '../../ui/app-shell';
import { StatusLine } from '../../ui/feedback';
import { SecretReveal } from '../../ui/secret-reveal';
import { formProblem, internalApi } from '../internal-api';
import { CreateKeyForm, type CreatedKey, type Project } from './create-key-form';
import { KeyList } from './key-list';
import { RevokeDialog } from './revoke-dialog';

/** The interactive part of the page: create, reveal once, list, revoke. */
export function ApiKeysManager({
  workspace,
  projects,
  initialKeys,
  lastDay,
}: {
  workspace: string;
  projects: Project[];
  initialKeys: KeyView[];
  /** Each key's requests of the last 24 hours, as the page was rendered. */
  lastDay: Record<string, LastDay>;
}) {
  const [keys, setKeys] = useState(initialKeys);
  const [revealed, setRevealed] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeyView | null>(null);
  const [notice, setNotice] = useState('');

  async function reload() {
    setKeys(await internalApi.keys.list.query({ workspace }));
  }

  function created(result: CreatedKey) {
    setRevealed(result);
    setKeys((current) => [result.key, ...current]);
  }

  async function revoke(key: KeyView) {
    setRevoking(null);
    try {
      await internalApi.keys.revoke.mutate({ workspace, id: key.id });
      setNotice(`Key “${key.name}” revoked.`);
      await reload();
    } catch (error) {
      setNotice(`Key “${key.name}” was not revoked: ${formProblem(error).message}`);
    }
  }

  return (
    <>
      <StatusLine>{notice}</StatusLine>
      {revealed && (
        <SecretReveal
          id="reveal-heading"
          title={`Your new key “${revealed.key.name}”`}
          label="New API key"
          copyLabel="Copy key"
          secret={revealed.secret}
          onDone={() => setRevealed(null)}
        />
      )}
      <Section id="keys-heading" title="Keys" description="Every key of this workspace, newest first. A revoked key stays listed.">
        <KeyList workspace={workspace} keys={keys} lastDay={lastDay} onRevoke={setRevoking} />
      </Section>
      <Section id="create-heading" title="Create a key" description="The key is shown once, right after it is created.">
        <CreateKeyForm workspace={workspace} projects={projects} onCreated={created} />
      </Section>
      {revoking && <RevokeDialog apiKey={revoking} onConfirm={() => revoke(revoking)} onCancel={() => setRevoking(null)} />}
    </>
  );
}
