/**
 * Chromium's virtual WebAuthn authenticator over CDP (WebAuthn.enable, WebAuthn.addVirtualAuthenticator),
 * set up once for every place that drives real passkey ceremonies: the browser test rig, the
 * end-to-end test, the screenshots and the login benchmark. The defaults are a platform
 * authenticator (CTAP2, internal transport, resident keys, user verification) that answers at once,
 * as if the user touched it; `options` overrides any of them.
 */
import type { CDPSession, Page } from 'playwright';

export const PLATFORM_AUTHENTICATOR = {
  protocol: 'ctap2',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
} as const;

export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

export async function addVirtualAuthenticator(page: Page, options: Record<string, unknown> = {}): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = (await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { ...PLATFORM_AUTHENTICATOR, ...options },
  } as never)) as { authenticatorId: string };
  return { cdp, authenticatorId };
}
