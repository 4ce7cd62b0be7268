/**
 * An OTP login taken up again from a kept challenge answer (core `startOtpLogin({ registered })`),
 * against the real sandbox behind the real proxy on loopback. What a page keeps is outside input
 * (another script of the origin, an older version wrote it): one that is not an OTP answer of the
 * credential is refused, and no new code is sent for it (api.md "Credential endpoints").
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, SANDBOX_OTP_CODE, type Sandbox } from '../../../src/sandbox/index.ts';
import type { ProxyHandler } from '../../../src/proxy/index.ts';
import { createClient } from '../../../src/core/client.ts';
import { memoryKeyStore } from '../../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../../src/core/session.ts';
import { WalletError } from '../../../src/core/errors.ts';
import { createSandboxAccount, type SandboxAccount } from '../../support/sandbox-account.ts';
import { testProxy } from '../../support/test-proxy.ts';

describe('an OTP login taken up from a kept challenge answer', () => {
  let sandbox: Sandbox;
  let proxy: ProxyHandler;
  let server: Server;
  let wallet: Wallet;
  /** The codes sent: each POST /auth/credentials/{id}/challenge the proxy passed on. */
  let challenges = 0;

  before(async () => {
    sandbox = await startSandbox({});
    proxy = testProxy(sandbox.fixtures, { logger: (line) => void (line.route === 'credentialChallenge' && challenges++) });
    server = createServer((req, res) => proxy(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` });
    wallet = createWallet({ client, store: memoryKeyStore(), otpSigner: sandbox.fixtures.signerPublicKey });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await proxy.close();
    await sandbox.close();
  });

  /** A code sent to a new account's email credential, its answer kept as a page keeps it, and the service's wait for another code over. */
  async function kept() {
    const acct = (await (await createSandboxAccount(sandbox)).json()) as SandboxAccount;
    const { credentialId: id, accountId, type, otpEncryptionTargetBundle } = await wallet.startOtpLogin({ credentialId: acct.emailCredentialId });
    sandbox.clock.advance(31_000);
    return { id, accountId, type, otpEncryptionTargetBundle };
  }

  it('a well-formed one logs in with the code already sent, and sends none', async () => {
    const registered = await kept();
    const sent = challenges;
    const otp = await wallet.startOtpLogin({ credentialId: registered.id, registered });
    assert.equal((await otp.submit(SANDBOX_OTP_CODE)).accountId, registered.accountId);
    assert.equal(challenges, sent);
  });

  for (const type of ['PASSKEY', 'OAUTH', 'email_otp', '', null, 42, ['EMAIL_OTP'], { toString: () => 'SMS_OTP' }]) {
    const named = typeof type == 'object' && type && !Array.isArray(type) ? 'an object that reads "SMS_OTP"' : JSON.stringify(type);
    it(`one whose type is ${named} is refused as invalid_argument, and sends no code`, async () => {
      const registered = { ...(await kept()), type: type as never };
      const sent = challenges;
      const e = await wallet.startOtpLogin({ credentialId: registered.id, registered }).then(
        (otp) => assert.fail(`taken up as ${JSON.stringify(otp.type)}, ${challenges - sent} code(s) sent`),
        (e: unknown) => e,
      );
      assert.ok(e instanceof WalletError && e.code === 'invalid_argument', String(e));
      assert.equal(challenges, sent);
    });
  }

  it('one of another credential is refused, and sends no code', async () => {
    const registered = await kept();
    const other = await kept();
    const sent = challenges;
    await assert.rejects(wallet.startOtpLogin({ credentialId: other.id, registered }), (e) => e instanceof WalletError && e.code === 'invalid_argument');
    assert.equal(challenges, sent);
  });

  it('an answer without a target still sends the credential its code (a registration that sent none)', async () => {
    const { otpEncryptionTargetBundle: _, ...registered } = await kept();
    const sent = challenges;
    await wallet.startOtpLogin({ credentialId: registered.id, registered: registered as never });
    assert.equal(challenges, sent + 1);
  });
});
