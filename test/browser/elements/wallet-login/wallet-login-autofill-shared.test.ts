/**
 * Passkey autofill with several <wallet-login> on one page, in Chromium with the virtual
 * authenticator. A page holds one conditional WebAuthn request at a time (a new one ends the one
 * pending), so the elements take turns: one offers the saved-passkey field and asks for its list
 * and challenge; the next does once that request ends (its element gone, or cut off by a passkey
 * prompt, after which it is offered again).
 */
import { expect } from 'chai';
import '../../../../src/elements/wallet-login/wallet-login.ts';
import type { WalletLogin } from '../../../../src/elements/wallet-login/wallet-login.ts';
import type { LoggedInDetail } from '../../../../src/elements/wallet-login/wallet-login.events.ts';
import { walletFor } from '../../../../src/elements/shared/wallet.ts';
import { addVirtualAuthenticator, authenticatorCredentials, newAccount, setAutomaticPresence, takeAuthenticatorCredential, type RigAccount } from '../../support/rig.ts';
import { holdAnswer, mount, nextEvent, part, resetPage, shadow, useRig, waitFor, waitForState } from '../shared/helpers.ts';

/** The conditional requests the page made, and how many of them still wait for a pick. */
function watchConditional(): { readonly made: number; readonly pending: number; readonly ended: string[]; readonly prompts: number; readonly promptsEnded: string[]; restore(): void } {
  const credentials = navigator.credentials;
  const get = credentials.get;
  const watch = { made: 0, pending: 0, ended: [] as string[], prompts: 0, promptsEnded: [] as string[], restore: () => void (credentials.get = get) };
  credentials.get = function (this: CredentialsContainer, options?: CredentialRequestOptions) {
    const answer = get.call(this, options);
    if (options?.mediation === 'conditional') {
      watch.made++;
      watch.pending++;
      answer.then(
        () => watch.pending--,
        (e: Error) => (watch.pending--, watch.ended.push(`${e.name}: ${e.message}`)),
      );
    } else {
      // A modal prompt.
      watch.prompts++;
      answer.then(
        () => watch.promptsEnded.push('answered'),
        (e: Error) => watch.promptsEnded.push(`${e.name}: ${e.message}`),
      );
    }
    return answer;
  };
  return watch;
}

/** The URL of a passkey's login challenge. */
const challengeOf = (passkey: { id: string }) => new RegExp(`/auth/credentials/[^/]*${passkey.id.split(':')[1]}/challenge$`);
/** base64 (as the authenticator names its credentials) to base64url. */
const base64url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const fields = (els: WalletLogin[]) => els.filter((el) => part(el, 'autofill')?.querySelector('input'));
const settle = () => new Promise((r) => setTimeout(r, 700));

describe('<wallet-login> passkey autofill, several on one page', function () {
  this.timeout(60000);
  let accounts: RigAccount[];
  /** Each account's passkey: its AuthMethod id and WebAuthn credential id (base64url). */
  let passkeys: Array<{ id: string; credentialId?: string }>;
  let watch: ReturnType<typeof watchConditional>;

  beforeEach(async () => {
    await useRig();
    await addVirtualAuthenticator();
    accounts = [await newAccount(), await newAccount()];
    const wallet = walletFor();
    passkeys = [];
    for (const acct of accounts) {
      await (await wallet.startOtpLogin({ credentialId: acct.emailCredentialId })).submit('000000');
      passkeys.push(await wallet.registerPasskey({ accountId: acct.accountId, nickname: 'Test key' }));
      await wallet.logout(acct.accountId);
    }
    // No pick comes: each conditional request waits.
    await setAutomaticPresence(false);
    watch = watchConditional();
  });
  afterEach(async () => {
    watch.restore();
    await resetPage();
  });

  it('three elements: one conditional request and one offered field at a time; the next takes over when its element goes', async () => {
    const [a, b] = accounts as [RigAccount, RigAccount];
    const els: WalletLogin[] = [];
    for (const acct of [a, a, b]) {
      const el = await mount<WalletLogin>('wallet-login', { 'account-id': acct.accountId, methods: 'passkey email-otp' });
      await waitForState(el, 'choosing');
      els.push(el);
    }
    await waitFor(() => fields(els).length > 0, 'an autofill field');
    // Its request follows the field (after the list and the challenge), however late; then a while for any other.
    await waitFor(() => watch.made > 0, 'the conditional request');
    await settle();
    expect(watch.made, 'conditional requests made').to.equal(1);
    expect(watch.pending).to.equal(1);
    expect(fields(els), 'fields offered').to.deep.equal([els[0]]);

    // The owner goes: the next element offers its field over a request of its own.
    els.shift()!.remove();
    await waitFor(() => fields(els).length === 1 && fields(els)[0] === els[0], 'the second element offering autofill');
    await waitFor(() => watch.made > 1, 'its conditional request');
    await settle();
    expect(watch.made).to.equal(2);
    expect(watch.pending).to.equal(1);
    expect(fields(els)).to.deep.equal([els[0]]);
  });

  it('the next element\'s autofill, its challenge answered once the prompt of the element it took over from is open, waits for that prompt to end instead of cutting it off', async () => {
    const [a, b] = accounts as [RigAccount, RigAccount];
    const first = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId, methods: 'passkey email-otp' });
    await waitFor(() => part(first, 'autofill')?.querySelector('input'), 'the first element\'s autofill field');
    const second = await mount<WalletLogin>('wallet-login', { 'account-id': b.accountId, methods: 'passkey email-otp' });
    await waitForState(second, 'choosing');
    await waitFor(() => watch.made > 0, 'the first element\'s conditional request');
    await settle();
    expect(watch.made).to.equal(1);
    // The first element's passkey button: its autofill ends and the second takes the turn, asking for
    // its challenge while the first asks for its own; the second's answer comes once the prompt is open.
    const held = holdAnswer('POST', challengeOf(passkeys[1]!));
    try {
      shadow(first).querySelector<HTMLButtonElement>(`button[data-method='passkey']`)!.click();
      await held.arrived;
      await waitFor(() => watch.prompts === 1, 'the first element\'s passkey prompt');
      held.release();
      await settle();
      expect(watch.promptsEnded, 'the prompt, open').to.deep.equal([]);
      expect(watch.made, 'conditional requests made while the prompt is open').to.equal(1);
      expect(first.matches(':state(authenticating)')).to.equal(true);
    } finally {
      held.undo();
    }
    // The prompt cancelled: the second element offers autofill over a request of its own.
    first.cancel();
    await waitFor(() => fields([first, second])[0] === second, 'the second element offering autofill');
    await waitFor(() => watch.promptsEnded.length > 0 && watch.made > 1, 'the prompt ended and the second element\'s request');
    await settle();
    expect(watch.promptsEnded).to.have.length(1);
    expect([watch.made, watch.pending]).to.deep.equal([2, 1]);
    expect(fields([first, second])).to.deep.equal([second]);
  });

  it('autofill cut off by another element\'s passkey prompt is offered again once that login ended', async () => {
    const [a, b] = accounts as [RigAccount, RigAccount];
    const first = await mount<WalletLogin>('wallet-login', { 'account-id': a.accountId, methods: 'passkey email-otp' });
    const second = await mount<WalletLogin>('wallet-login', { 'account-id': b.accountId, methods: 'passkey email-otp', 'no-autofill': '' });
    await waitFor(() => part(first, 'autofill')?.querySelector('input'), 'the first element\'s autofill field');
    await waitFor(() => watch.pending > 0, 'the first element\'s conditional request');
    await settle();
    expect(watch.pending).to.equal(1);
    // The second wallet logs in with its passkey button: its prompt ends the pending autofill
    // request. The authenticator now answers at once, as a user picking the suggestion would.
    const loggedIn = nextEvent<CustomEvent<LoggedInDetail>>(second, 'wallet-logged-in');
    const firstIn = nextEvent<CustomEvent<LoggedInDetail>>(first, 'wallet-logged-in');
    // Its request asked again waits for its challenge until the second wallet's passkey has left this
    // authenticator, which would otherwise answer with whichever of its two passkeys it picks.
    const again = holdAnswer('POST', challengeOf(passkeys[0]!));
    try {
      await setAutomaticPresence(true);
      shadow(second).querySelector<HTMLButtonElement>(`button[data-method='passkey']`)!.click();
      expect((await loggedIn).detail.accountId).to.equal(b.accountId);
      await again.arrived;
      const other = (await authenticatorCredentials()).credentials.find((c) => base64url(c.credentialId) === passkeys[1]!.credentialId);
      await takeAuthenticatorCredential(other!.credentialId);
      again.release();
    } finally {
      again.undo();
    }
    // The first element asked again once that prompt ended (not during it), and the pick of its
    // wallet's passkey logs it in: its field was not left on a request that was gone.
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`no autofill login (made ${watch.made}, ended ${watch.ended.join('; ')})`)), 15000));
    const { detail } = (await Promise.race([firstIn, timeout])) as CustomEvent<LoggedInDetail>;
    expect([detail.accountId, detail.credentialType, detail.source]).to.deep.equal([a.accountId, 'PASSKEY', 'login']);
    expect(watch.made).to.equal(2);
    expect(watch.ended).to.deep.equal(['AbortError: Another passkey request started.']);
  });
});
