'use client';

import { useState } from 'react';
import type { KeyView } from '@/server/settings/key-view';
import { formProblem, internalApi } from '../internal-api';
import styles from '../settings.module.css';
import { CreateKeyForm, type CreatedKey, type Project } from './create-key-form';
import { KeyList } from './key-list';
import { KeyReveal } from './key-reveal';
import { RevokeDialog } from './revoke-dialog';

/** The interactive part of the page: create, reveal once, list, revoke. */
export function ApiKeysManager({ workspace, projects, initialKeys }: { workspace: string; projects: Project[]; initialKeys: KeyView[] }) {
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
      {revealed && <KeyReveal name={revealed.key.name} secret={revealed.secret} onDone={() => setRevealed(null)} />}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <p role="status" className={styles.muted}>
          {notice}
        </p>
        <KeyList keys={keys} onRevoke={setRevoking} />
      </section>
      <CreateKeyForm workspace={workspace} projects={projects} onCreated={created} />
      {revoking && <RevokeDialog apiKey={revoking} onConfirm={() => revoke(revoking)} onCancel={() => setRevoking(null)} />}
    </>
  );
}
