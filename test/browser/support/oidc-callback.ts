/**
 * The `redirect_uri` page of the README's single sign-on example ("and, at the `redirect_uri`"):
 * the README's script for that page, read from the README, runs as a script of this page with the
 * address the issuer redirected to (nothing here reads or changes it first).
 */
const readme = await (await fetch('/README.md')).text();
const at = readme.indexOf('at the `redirect_uri`');
const block = at < 0 ? undefined : /```js\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
if (!block) throw new Error('README has no redirect_uri page script');
const script = document.createElement('script');
script.textContent = block;
document.body.append(script);

export {};
