/**
 * The page side of screenshots.ts: defines the three elements and gives the capture script a few
 * handles to bring them into each state against the real sandbox (logins through core, the same
 * calls the elements make). Bundled by esbuild and served under a strict CSP (no inline anything).
 */
import '../../../../src/elements/wallet-login/index.ts';
import '../../../../src/elements/passkey-register/index.ts';
import '../../../../src/elements/wallet-credentials/index.ts';
import { configureWallet } from '../../../../src/elements/shared/config.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import '../../../../src/locales/ar.ts';
import { indexedDbKeyStore } from '../../../../src/core/keystore.ts';

const shots = {
  setup(): void {
    configureWallet({ apiBase: '/api', environment: 'sandbox', store: indexedDbKeyStore({ dbName: `shots-${crypto.randomUUID()}` }) });
  },
  async loginByEmail(credentialId: string): Promise<void> {
    await (await walletFor().startOtpLogin({ credentialId })).submit('000000');
  },
  async addSms(accountId: string): Promise<void> {
    await walletFor().addCredential({ type: 'SMS_OTP', accountId });
  },
  async logout(accountId: string): Promise<void> {
    await walletFor().logout(accountId);
  },
  mount(tag: string, attributes: Record<string, string>): void {
    const stage = document.getElementById('stage')!;
    stage.replaceChildren();
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
    stage.append(el);
  },
};

(window as unknown as { shots: typeof shots }).shots = shots;
