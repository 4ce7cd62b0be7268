/**
 * The demo's OIDC token provider for <wallet-login> and <wallet-credentials>: the implicit flow of
 * OpenID Connect Core 1.0 §3.2 in a popup, against the sandbox's test issuer. The element gives the
 * nonce (the SHA-256 of its session key, DESIGN.md wire format 5), this opens the issuer's
 * authorize page with it and a random `state`, and the redirect page (oauth-callback.ts) hands the
 * ID token back over a BroadcastChannel. An integrator swaps this for its identity provider's SDK.
 */

const CHANNEL = 'demo-oidc';

function randomState(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function popupTokenProvider(issuer: string, clientId: string): (nonce: string, options: { signal: AbortSignal }) => Promise<string> {
  return (nonce, { signal }) =>
    new Promise<string>((resolve, reject) => {
      const state = randomState();
      const redirect = new URL('/demo/oauth-callback.html', location.href).href;
      const url = new URL(`${issuer}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'id_token',
        scope: 'openid email',
        client_id: clientId,
        redirect_uri: redirect,
        nonce,
        state,
      }).toString();
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
        fn();
      };
      channel.onmessage = (event: MessageEvent<{ state?: string; idToken?: string; error?: string }>) => {
        if (event.data?.state !== state) return;
        const { idToken, error } = event.data;
        finish(() => (idToken ? resolve(idToken) : reject(new DOMException(`Sign-in failed: ${error ?? 'unknown'}`, 'NotAllowedError'))));
      };
      // A window closed without an answer is a cancellation (give a late message a moment).
      const watch = setInterval(() => {
        if (popup.closed) setTimeout(() => finish(() => reject(new DOMException('The sign-in window was closed.', 'AbortError'))), 1000);
      }, 400);
      // Cancelled in the element: the window goes too.
      signal.addEventListener('abort', () => finish(() => (popup.close(), reject(new DOMException('Sign-in cancelled.', 'AbortError')))), { once: true });
    });
}
