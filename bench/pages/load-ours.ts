/**
 * Load page for our <wallet-login>: its per-element entry (what `import 'wallet-elements/wallet-login'`
 * gives an integrator), then one element in the body, configured for the local sandbox behind the
 * proxy at `/api` on this origin.
 */
import { configureWallet } from '../../src/elements/wallet-login/index.ts';

export async function mount(parent: HTMLElement, attributes: Record<string, string>): Promise<HTMLElement> {
  configureWallet({ apiBase: '/api', environment: 'sandbox' });
  const el = document.createElement('wallet-login');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  parent.append(el);
  return el;
}
