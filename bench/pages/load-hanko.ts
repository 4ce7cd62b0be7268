/**
 * Load page for @teamhanko/hanko-elements: `register()` then one `<hanko-auth>` in the body, the
 * way its documentation mounts it. The API base is this page's own origin under `/hanko` (the
 * benchmark server answers 404 there, at once), so no time is spent waiting on a network.
 */
import { register } from '@teamhanko/hanko-elements';

export async function mount(parent: HTMLElement, attributes: Record<string, string>): Promise<HTMLElement> {
  await register(`${location.origin}/hanko`);
  const el = document.createElement('hanko-auth');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  parent.append(el);
  return el;
}
