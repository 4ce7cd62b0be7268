/**
 * A customer set of its own in a sandbox: POST /sandbox/accounts with the sandbox's platform
 * credentials, `body` its options (an email, no email credential, a number of agent actions, …).
 * The sandbox's answer as it came, for the caller to check and read.
 */
import type { Sandbox } from '../../src/sandbox/index.ts';
import type { CustomerSet } from '../../src/sandbox/world.ts';

/** A customer set as the sandbox answers it, made with its email credential (as by default). */
export type SandboxAccount = CustomerSet & { emailCredentialId: string };

export function createSandboxAccount(sandbox: Pick<Sandbox, 'url' | 'fixtures'>, body: Record<string, unknown> = {}): Promise<Response> {
  const { tokenId, clientSecret } = sandbox.fixtures;
  return fetch(`${sandbox.url}/sandbox/accounts`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${tokenId}:${clientSecret}`).toString('base64'), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
