/**
 * <card-reveal> on a page whose Content-Security-Policy leaves the card processor out of
 * `frame-src`, in real Chromium against the real sandbox: the browser puts an error page in the
 * frame and reports the refusal to the document only, so the element must read that report and
 * say so (code `frame_blocked`) rather than leave "Card details shown" over an empty frame. In a
 * file of its own: a policy cannot be taken back from a page once it applies.
 */
import { expect } from 'chai';
import '../../../../src/elements/card-reveal/index.ts';
import type { CardReveal } from '../../../../src/elements/card-reveal/index.ts';
import { fixtures, pageFrames } from '../../support/rig.ts';
import { mount, nextEvent, part, shadow, resetPage, text, useRig } from '../shared/helpers.ts';
import { watchForLeaks } from '../../support/traces.ts';

describe('<card-reveal> under a page policy that refuses the processor frame', () => {
  afterEach(resetPage);

  it('reports frame_blocked, removes the frame and says why, after the browser refuses it', async () => {
    const f = await fixtures();
    await useRig();
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = "frame-src 'self'";
    document.head.append(meta);

    const trail = await watchForLeaks({ apiBase: f.apiBase });
    let token: string | null | undefined;
    const pageFetch = window.fetch;
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await pageFetch(...args);
      if (new Request(...args).url.endsWith('/reveal')) {
        const url = ((await response.clone().json()) as { panEmbedUrl?: string }).panEmbedUrl;
        token = url && new URL(url).searchParams.get('token');
        trail.secret('the reveal URL', url);
        trail.secret('the reveal token', token);
      }
      return response;
    };
    // What a monitoring script hears of the refusal (what a report-uri would be sent).
    const violations: string[] = [];
    const hear = (e: SecurityPolicyViolationEvent) => violations.push(`${e.blockedURI} ${e.documentURI} ${e.sourceFile} ${e.sample}`);
    document.addEventListener('securitypolicyviolation', hear);
    const el = await mount<CardReveal>('card-reveal', { 'card-id': f.cardId, 'allowed-origins': f.processorOrigin });
    const events: string[] = [];
    for (const name of ['card-revealed', 'card-hidden', 'card-reveal-error']) el.addEventListener(name, (e) => events.push(`${name} ${JSON.stringify((e as CustomEvent).detail)}`));
    const failed = nextEvent<CustomEvent>(el, 'card-reveal-error', 10000);
    (part(el, 'reveal-button') as HTMLButtonElement).click();
    const { detail } = await failed;

    expect(detail.code).to.equal('frame_blocked');
    expect(detail.message).to.match(/doesn’t allow the secure view/);
    expect(el.matches(':state(error)')).to.equal(true);
    expect(shadow(el).querySelector('iframe')).to.equal(null);
    expect(text(el, 'error')).to.equal(detail.message);
    // Reloading the same page changes nothing: no "Try again" is offered.
    expect(part(el, 'retry-button')).to.equal(null);
    expect(events.map((e) => e.split(' ')[0])).to.deep.equal(['card-revealed', 'card-hidden', 'card-reveal-error']);
    expect(events[1]).to.equal('card-hidden {"reason":"blocked"}');
    // Nothing of the processor was framed.
    const { frames } = await pageFrames();
    expect(frames.some((x) => x.origin === f.processorOrigin)).to.equal(false);
    // The refusal says nowhere what it refused: the reveal URL is in no console line, violation
    // event (the browser's own report names the processor's origin only), event, error, storage or log.
    window.fetch = pageFetch;
    document.removeEventListener('securitypolicyviolation', hear);
    expect(violations.some((v) => v.startsWith(f.processorOrigin)), 'the refusal heard').to.equal(true);
    expect(violations.join('\n').includes(token!), 'the reveal token in a violation event').to.equal(false);
    const scan = await trail.scan();
    // Firefox's own console report of the refusal (an error no script of the page gets) names the
    // refused URL in full, token and all, where Chromium's names its origin: the browser's words,
    // which no page can change, and the only place it is found. WebKit's names it whole too, in its
    // console, which its run cannot read (the scan's `unseen`: support/README.md, In WebKit).
    const firefoxReport = navigator.userAgent.includes('Firefox/') ? ['the reveal URL in uncaught page errors (CDP)', 'the reveal token in uncaught page errors (CDP)'] : [];
    expect([scan.counts['the reveal token'], scan.blind.filter((sink) => !scan.unseen.includes(sink)), scan.found]).to.deep.equal([1, [], firefoxReport]);
  });
});
