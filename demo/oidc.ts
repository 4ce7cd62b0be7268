/**
 * The demo's OIDC token provider for <wallet-login> and <wallet-credentials>: the authorization code
 * flow with PKCE (RFC 6749 §4.1, RFC 7636 with S256) in a popup, against the sandbox's test issuer,
 * as the OAuth 2.0 Security Best Current Practice (RFC 9700 §2.1.1) asks of browser apps.
 *
 * The element gives the nonce (the SHA-256 of its session key, DESIGN.md wire format 5); it goes
 * into the authorization request unchanged, so that the ID token carries it. This page keeps a
 * random `state` and `code_verifier` to itself and sends only the verifier's S256 hash; the
 * redirect page (oauth-callback.ts) hands back the code and state over a BroadcastChannel and
 * closes once this page says it has them; the state is checked here, then the code and the
 * verifier are exchanged at the token endpoint for the ID token. A code read by anyone else is
 * worthless without the verifier, which never leaves this page. An integrator swaps this for its
 * identity provider's SDK or endpoints.
 */

const CHANNEL = 'demo-oidc';

/** `bytes` random bytes, base64url without padding: 32 give a 43-character verifier (RFC 7636 §4.1). */
function randomBase64url(bytes: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** RFC 7636 §4.2: code_challenge = BASE64URL(SHA-256(ASCII(code_verifier))). */
async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

interface CallbackMessage {
  state?: string | null;
  code?: string | null;
  iss?: string | null;
  error?: string | null;
}

export function popupTokenProvider(issuer: string, clientId: string): (nonce: string, options: { signal: AbortSignal }) => Promise<string> {
  return async (nonce, { signal }) => {
    const state = randomBase64url(16);
    const verifier = randomBase64url(32);
    const redirectUri = new URL('/demo/oauth-callback.html', location.href).href;
    const url = new URL(`${issuer}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      scope: 'openid email',
      client_id: clientId,
      redirect_uri: redirectUri,
      nonce,
      state,
      code_challenge: await s256(verifier),
      code_challenge_method: 'S256',
    }).toString();
    signal.throwIfAborted(); // from here to the abort listener, nothing awaits
    const code = await new Promise<string>((resolve, reject) => {
      const popup = window.open(url.href, 'demo-oidc', 'popup,width=480,height=600');
      if (!popup) {
        reject(new DOMException('The sign-in window was blocked.', 'NotAllowedError'));
        return;
      }
      const channel = new BroadcastChannel(CHANNEL);
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        channel.close();
        clearInterval(watch);
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      channel.onmessage = (event: MessageEvent<CallbackMessage>) => {
        // An answer to another sign-in (another tab, an older window) is not ours: only the state
        // made for this request is (RFC 6749 §10.12).
        if (event.data?.state !== state) return;
        // The callback window closes on this receipt, not before: closed at once, it could read
        // as closed here before its answer came (the watch below), as if the user had given up.
        channel.postMessage({ received: state });
        const { code, iss, error } = event.data;
        // RFC 9207: an issuer that names itself must be the one asked (mix-up defence).
        if (iss && iss !== issuer) return finish(() => reject(new DOMException('Sign-in answered by another issuer.', 'NotAllowedError')));
        // access_denied: the user declined at the provider, a cancellation as closing the window is.
        finish(() => (code ? resolve(code) : reject(new DOMException(`Sign-in failed: ${error ?? 'unknown'}`, error === 'access_denied' ? 'AbortError' : 'NotAllowedError'))));
      };
      // A window closed without an answer is a cancellation (give a late message a moment).
      const watch = setInterval(() => {
        if (popup.closed) setTimeout(() => finish(() => reject(new DOMException('The sign-in window was closed.', 'AbortError'))), 1000);
      }, 400);
      // Cancelled in the element: the window goes too.
      const onAbort = () => finish(() => (popup.close(), reject(new DOMException('Sign-in cancelled.', 'AbortError'))));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // RFC 6749 §4.1.3 with RFC 7636 §4.5: form-encoded, the same redirect_uri, the verifier.
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
      signal,
    });
    const body = (await response.json().catch(() => ({}))) as { id_token?: unknown; error?: unknown };
    if (!response.ok || typeof body.id_token !== 'string') {
      throw new DOMException(`Sign-in failed: ${typeof body.error === 'string' ? body.error : response.status}`, 'NotAllowedError');
    }
    return body.id_token;
  };
}
