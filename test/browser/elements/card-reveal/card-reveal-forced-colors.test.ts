/**
 * <card-reveal> in forced colours (Windows high contrast; CSS Color Adjustment 1): the browser drops
 * every gradient, so the placeholder face loses its background and the chip, and paints the face in
 * the page's own Canvas colour. Emulated in real Chromium (`forced-colors: active`, the Playwright
 * media emulation behind @web/test-runner's emulateMedia).
 */
import { expect } from 'chai';
import { forcedColors } from '../../support/rig.ts';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { mount, part, resetPage, shadow } from '../shared/helpers.ts';

/** The lines a reader sees around a node (border and outline), as the browser computes them: width, style, colour. */
function edge(node: Element): { border: string; outline: string } {
  const style = getComputedStyle(node);
  const seen = (width: string, lineStyle: string, color: string) => lineStyle !== 'none' && parseFloat(width) > 0 && color !== 'rgba(0, 0, 0, 0)';
  const drawn = (width: string, lineStyle: string, color: string) => (seen(width, lineStyle, color) ? `${width} ${lineStyle} ${color}` : 'none');
  return {
    border: drawn(style.borderTopWidth, style.borderTopStyle, style.borderTopColor),
    outline: drawn(style.outlineWidth, style.outlineStyle, style.outlineColor),
  };
}

/** The colour a system colour keyword resolves to on this page. */
function systemColor(keyword: string): string {
  const probe = document.createElement('span');
  probe.style.color = keyword;
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

describe('<card-reveal> in forced colours', () => {
  afterEach(async function () {
    await forcedColors('none');
    await resetPage.call(this);
  });

  it('the placeholder card face and its chip keep a visible edge in the text colour once their gradients are gone', async () => {
    await forcedColors('active');
    expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
    const el = await mount<CardReveal>('card-reveal', { 'card-id': 'Card:00000000-0000-4000-8000-000000000001' });
    const face = part(el, 'face')!;
    const chip = shadow(el).querySelector('.chip')!;
    // What forced colours take away: the gradients.
    expect(getComputedStyle(face).backgroundImage).to.equal('none');
    expect(getComputedStyle(chip).backgroundImage).to.equal('none');
    // The face sits on the Canvas colour like the panel around it, so only a line can show its edge.
    const text = systemColor('CanvasText');
    expect(text).to.not.equal(systemColor('Canvas'));
    for (const [name, node] of [['face', face], ['chip', chip]] as const) {
      const { border, outline } = edge(node);
      const lines = [border, outline].filter((line) => line !== 'none');
      expect(lines, `${name}: border ${border}, outline ${outline}`).to.not.deep.equal([]);
      for (const line of lines) expect(line.endsWith(text), `${name}: ${line}`).to.equal(true);
    }
  });

  it('without forced colours the face and chip show no line of their own (the gradients are their edge)', async () => {
    const el = await mount<CardReveal>('card-reveal', { 'card-id': 'Card:00000000-0000-4000-8000-000000000001' });
    for (const node of [part(el, 'face')!, shadow(el).querySelector('.chip')!]) {
      expect(edge(node)).to.deep.equal({ border: 'none', outline: 'none' });
    }
  });
});
