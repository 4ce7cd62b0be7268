import { expect } from 'chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { failNextLoad, fixtures, openOtherTab } from './support/rig.ts';
import { watchForLeaks } from './support/traces.ts';
import { expectUncaught } from './support/uncaught.ts';
import { failNext } from './elements/shared/helpers.ts';

describe('test rig', () => {
  it('runs in a secure context with WebCrypto and IndexedDB', async () => {
    expect(window.isSecureContext).to.equal(true);
    expect(typeof crypto.subtle.sign).to.equal('function');
    expect(typeof indexedDB.open).to.equal('function');
  });

  describe('failNextLoad', () => {
    // Files of the repository, served by the test server, that no page loads otherwise, fetched (a
    // module import that failed would stay failed for the page in Chromium).
    const ARMED_IN_TEST = '/LICENSE';
    const ARMED_IN_BEFORE = '/test/browser/support/README.md';
    const load = async (path: string) => (await fetch(path, { cache: 'no-store' })).status;

    it('fails the loads it was armed for, and leaves the rest armed when the test ends', async () => {
      await failNextLoad(ARMED_IN_TEST, 3);
      expect(await load(ARMED_IN_TEST)).to.equal(503);
    });

    it('a later test does not see a failure an earlier test left armed', async () => {
      const failed = (await failNextLoad(ARMED_IN_TEST)).failed;
      expect(await load(ARMED_IN_TEST)).to.equal(200);
      expect((await failNextLoad(ARMED_IN_TEST)).failed).to.equal(failed);
    });

    it('an arm whose page never disarmed it (it hung) is dropped once another test page starts', async () => {
      // Armed past rig.ts, whose hooks would disarm it, as a page that hung leaves it.
      await executeServerCommand('fail-next-load', { path: ARMED_IN_TEST, times: 3 });
      expect(await load(ARMED_IN_TEST)).to.equal(503);
      // What the next file's page asks for first carries its session id (web-test-runner's wtr-session-id).
      await fetch('/package.json?wtr-session-id=the-next-page', { cache: 'no-store' });
      expect(await load(ARMED_IN_TEST)).to.equal(200);
    });

    describe('armed in a before hook', () => {
      before(async () => {
        await failNextLoad(ARMED_IN_BEFORE, 2);
      });

      it('holds in the first test', async () => {
        expect(await load(ARMED_IN_BEFORE)).to.equal(503);
      });

      it('and in the next one, until the file ends', async () => {
        expect(await load(ARMED_IN_BEFORE)).to.equal(503);
        expect(await load(ARMED_IN_BEFORE)).to.equal(200);
      });
    });
  });

  describe('failNext', () => {
    it('fails exactly `times` of the matching requests sent at once', async () => {
      const undo = failNext('GET', /\/LICENSE\?at-once$/, 503, 2);
      try {
        const statuses = await Promise.all(Array.from({ length: 5 }, () => fetch('/LICENSE?at-once', { cache: 'no-store' }).then((r) => r.status)));
        expect(statuses.filter((s) => s === 503)).to.have.length(2, String(statuses));
        expect(statuses.filter((s) => s === 200)).to.have.length(3, String(statuses));
      } finally {
        undo();
      }
    });
  });

  describe('leak scan', () => {
    it('finds a secret a page script writes to the console, in its text or in an object, in every browser', async () => {
      // In the page's own sink: WebKit's run cannot read the browser's console (support/README.md).
      const trail = await watchForLeaks({ apiBase: (await fixtures()).apiBase });
      try {
        const [inText, inObject] = [`text-${crypto.randomUUID()}`, `object-${crypto.randomUUID()}`];
        trail.secret('a secret in text', inText);
        trail.secret("an object's secret", inObject);
        console.warn(`a page script reports https://pci.example/?token=${inText}`, { url: `https://pci.example/?token=${inObject}` });
        const { found } = await trail.scan();
        expect(found.filter((f) => f.endsWith(' in console calls (page)'))).to.have.members(['a secret in text in console calls (page)', "an object's secret in console calls (page)"]);
      } finally {
        await trail.stop();
      }
    });

    it('finds a secret the page wrote to its console just before the scan in the browser console too (the scan waits for it)', async () => {
      const trail = await watchForLeaks({ apiBase: (await fixtures()).apiBase });
      try {
        const secret = `late-${crypto.randomUUID()}`;
        trail.secret('a secret written last', secret);
        console.info(`a page script's last line: ${secret}`);
        const { found, unseen } = await trail.scan();
        // (WebKit's run has no browser console: support/README.md.)
        const sinks = ['console calls (page)', 'the browser console (CDP)'].filter((sink) => !unseen.includes(sink));
        expect(found).to.have.members(sinks.map((sink) => `a secret written last in ${sink}`));
      } finally {
        await trail.stop();
      }
    });
  });

  describe('uncaught errors and rejections (support/uncaught.ts)', () => {
    // The first test of each pair leaves what it names; the next one reads the verdict the root
    // afterEach gave it, then takes that failure back so that the file passes.
    let left: Mocha.Runnable & { err?: Error };
    const verdict = (test: typeof left): { state: string | undefined; message: string } => {
      const seen = { state: test.state, message: test.err?.message ?? '' };
      test.state = 'passed';
      delete test.err;
      return seen;
    };

    it('(leaves a rejection unawaited)', function () {
      left = this.test!;
      void Promise.reject(new Error('left unawaited'));
    });

    it('a rejection left unawaited fails the test it arrived in, and is named', () => {
      const { state, message } = verdict(left);
      expect(state).to.equal('failed');
      expect(message).to.match(/^Uncaught in this test:\nunhandled rejection: Error: left unawaited/);
    });

    it('(throws from a timer)', function () {
      left = this.test!;
      setTimeout(() => {
        throw new Error('thrown from a timer');
      });
    });

    it('an error thrown from a timer fails the test it arrived in, and is named', () => {
      const { state, message } = verdict(left);
      expect(state).to.equal('failed');
      expect(message).to.match(/^Uncaught in this test:\nuncaught error: Error: thrown from a timer/);
    });

    it('(throws from a timer, then waits for what the error stopped)', async function () {
      left = this.test!;
      this.timeout(10_000);
      // (A promise the timer would have resolved, had it not thrown first.)
      await new Promise(() =>
        setTimeout(() => {
          throw new Error('thrown before it could resolve');
        }),
      );
    });

    it('an uncaught error ends the test it arrived in at once, not at its timeout', () => {
      const { state, message } = verdict(left);
      expect(state).to.equal('failed');
      expect(message).to.match(/^Uncaught in this test:\nuncaught error: Error: thrown before it could resolve/);
      expect(message).not.to.include('Timeout');
      expect(left.duration).to.be.below(5_000);
    });

    /** Runs `code` as a script of another tab of this origin (its own realm), then closes it. */
    async function inOtherTab(code: string): Promise<void> {
      const tab = await openOtherTab();
      const script = tab.window.document.createElement('script');
      script.textContent = code;
      tab.window.document.body.append(script);
      await new Promise((r) => tab.window.setTimeout(r, 50));
      tab.close();
    }

    it('(leaves a rejection unawaited and throws from a timer, in another tab)', async function () {
      left = this.test!;
      await inOtherTab("Promise.reject(new Error('left in another tab')); setTimeout(() => { throw new TypeError('thrown in another tab'); });");
    });

    it('what goes uncaught in a frame of the rig (another tab) fails the test it arrived in, and is named', () => {
      const { state, message } = verdict(left);
      expect(state).to.equal('failed');
      expect(message).to.match(/^Uncaught in this test:\n/);
      expect(message).to.include('unhandled rejection: Error: left in another tab');
      expect(message).to.include('uncaught error: TypeError: thrown in another tab');
    });

    it('a rejection the test declares with expectUncaught does not fail it, and is handed to it', async () => {
      const seen = expectUncaught(/declared on purpose/);
      void Promise.reject(new Error('declared on purpose'));
      expect(await seen).to.have.property('message', 'declared on purpose');
    });

    it('(declares a rejection that never comes)', function () {
      left = this.test!;
      void expectUncaught('never comes');
    });

    it('a declared rejection that never came fails the test that declared it', () => {
      const { state, message } = verdict(left);
      expect(state).to.equal('failed');
      expect(message).to.equal('Uncaught in this test:\nexpected an uncaught error or rejection matching never comes; none arrived');
    });
  });
});
