/**
 * The floor of the load benchmark: a module holding only a `mount` that renders one element node,
 * built, served and measured as the two contenders are. Its time is what any import() costs on this
 * page (the request over loopback, a module record, the harness's turns), which both contenders pay.
 */
export async function mount(parent: HTMLElement): Promise<HTMLElement> {
  const el = document.createElement('div');
  el.append(document.createElement('span'));
  parent.append(el);
  return el;
}
