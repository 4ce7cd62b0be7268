/**
 * Login client overhead page (runs in Chromium): the core's real OTP and passkey login flows
 * (src/core/session.ts) against the real sandbox through the real proxy at `/api` on this origin.
 *
 * Method: wall time of the whole flow, minus the time spent waiting on the network and on the
 * user. The client gets a `fetch` that times each request from the call until the last body byte
 * is in (then hands the flow an already-read Response, so that parsing the JSON is counted as
 * ours), and `navigator.credentials.get` is timed the same way (the authenticator and the user).
 * What remains is everything the flow does on the client: our JavaScript, the WebCrypto
 * operations it awaits (key generation, ECDH, HKDF, AES-GCM, ECDSA) and the IndexedDB write of the
 * session key. It is an upper bound on the CPU time spent in our code (idle waits on the crypto
 * worker and on IndexedDB count against us), which is the fair side to err on for a budget.
 *
 * Deliberately not measured: the server side (sandbox, proxy), which the network time contains.
 */
import { createClient } from '../../src/core/client.ts';
import { indexedDbKeyStore, type KeyStore } from '../../src/core/keystore.ts';
import { createWallet, type Wallet } from '../../src/core/session.ts';

export interface Timing {
  totalMs: number;
  networkMs: number;
  userMs: number;
  /** totalMs - networkMs - userMs */
  clientMs: number;
  requests: number;
}

let networkMs = 0;
let userMs = 0;
let requests = 0;

const timedFetch: typeof fetch = async (input, init) => {
  const t0 = performance.now();
  try {
    const res = await fetch(input, init);
    const body = await res.arrayBuffer();
    return new Response(res.status === 204 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } finally {
    networkMs += performance.now() - t0;
    requests++;
  }
};

// The WebAuthn ceremony is the user's (and the authenticator's) time, not ours.
const credentials = navigator.credentials;
const originalGet = credentials.get.bind(credentials);
credentials.get = async (options?: CredentialRequestOptions) => {
  const t0 = performance.now();
  try {
    return await originalGet(options);
  } finally {
    userMs += performance.now() - t0;
  }
};
const originalCreate = credentials.create.bind(credentials);
credentials.create = async (options?: CredentialCreationOptions) => {
  const t0 = performance.now();
  try {
    return await originalCreate(options);
  } finally {
    userMs += performance.now() - t0;
  }
};

let wallet: Wallet;
let store: KeyStore;

function setup(options: { apiBase: string; otpSigner: string }): void {
  store = indexedDbKeyStore({ dbName: `bench-login-${crypto.randomUUID()}` });
  wallet = createWallet({ client: createClient({ baseUrl: options.apiBase, fetch: timedFetch }), store, otpSigner: options.otpSigner });
}

async function timed(flow: () => Promise<unknown>): Promise<Timing> {
  networkMs = 0;
  userMs = 0;
  requests = 0;
  const t0 = performance.now();
  await flow();
  const totalMs = performance.now() - t0;
  return { totalMs, networkMs, userMs, clientMs: totalMs - networkMs - userMs, requests };
}

/** EMAIL_OTP login: /challenge, target bundle check, HPKE, verify, stamp, verify again, store. */
function otp(credentialId: string): Promise<Timing> {
  return timed(async () => {
    const login = await wallet.startOtpLogin({ credentialId });
    await login.submit('000000');
  });
}

/** Adds a passkey to the account (needs the OTP session); not timed as a login. */
async function registerPasskey(accountId: string): Promise<string> {
  const method = await wallet.registerPasskey({ accountId, nickname: 'Benchmark passkey' });
  return method.id;
}

/** PASSKEY login: /challenge with an ECDH key, WebAuthn get, verify, decrypt the session key, store. */
function passkey(credentialId: string): Promise<Timing> {
  return timed(() => wallet.loginWithPasskey({ credentialId }));
}

Object.assign(globalThis, { bench: { setup, otp, registerPasskey, passkey } });
