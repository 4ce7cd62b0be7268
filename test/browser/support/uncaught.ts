/**
 * Uncaught errors and unhandled rejections of the test page fail the test they arrive in
 * (README.md, Uncaught errors and rejections). Every test page loads this module before the test
 * framework (web-test-runner.config.mjs testRunnerHtml), so that its listeners come before any
 * test code's; a test that provokes one on purpose says so with `expectUncaught`.
 */

interface Arrival {
  kind: 'uncaught error' | 'unhandled rejection';
  error: unknown;
  /** The test it is charged to, or the `before`/`after` hook (undefined: before the run began). */
  owner: Mocha.Runnable | undefined;
}

interface Expectation {
  match: RegExp | string;
  owner: Mocha.Runnable | undefined;
  arrived: (error: unknown) => void;
}

interface Watch {
  arrivals: Arrival[];
  expectations: Expectation[];
  runner?: Mocha.Runner;
  /** Watches another window of the page (a same-origin frame of the rig: frame-watch.ts) as the page's own. */
  listen(win: Window): void;
}

// One watch for the page, should this module be evaluated again under another URL.
const KEY = Symbol.for('wallet-elements.uncaught');
const page = globalThis as { [KEY]?: Watch };
const watch: Watch = page[KEY] ?? install();

/**
 * What the code that ran last belongs to: Mocha's runner keeps the runnable it runs now or ran last
 * (between runnables), and the test it runs now or ran last (from just before its `beforeEach`
 * hooks). A test or its `beforeEach`/`afterEach` hooks: that test; a `before`/`after` hook: itself.
 */
function ownerNow(): Mocha.Runnable | undefined {
  const r = watch.runner?.currentRunnable;
  const each = r && (r as Mocha.Hook).type === 'hook' && /^"(before|after) each" hook/.test((r as Mocha.Hook).originalTitle ?? r.title);
  return each ? (watch.runner?.test ?? r) : r;
}

/** An Error or DOMException, of this realm or a frame's (whose classes are its own). */
const isError = (error: unknown): error is Error => typeof error === 'object' && error !== null && typeof (error as Error).name === 'string' && typeof (error as Error).message === 'string';
const textOf = (error: unknown): string => (isError(error) ? `${error.name}: ${error.message}` : String(error));
/** An arrival as a failure names it: its kind, `Name: message` and stack. */
function lineOf({ kind, error }: Arrival): string {
  const text = textOf(error);
  const stack = isError(error) ? (error.stack ?? '') : '';
  return `${kind}: ${stack.startsWith(text) ? stack : `${text}\n${stack}`}`.trimEnd();
}

function install(): Watch {
  const arrive = (kind: Arrival['kind'], error: unknown) => {
    const owner = ownerNow();
    const text = textOf(error);
    const i = w.expectations.findIndex((x) => x.owner === owner && (typeof x.match === 'string' ? text.includes(x.match) : x.match.test(text)));
    if (i >= 0) return w.expectations.splice(i, 1)[0]!.arrived(error);
    // The test it is charged to still runs (its own code, not a hook of it): it ends now, failed
    // with it, as Mocha's own handler ended it, rather than wait for its timeout for what the error
    // stopped. What it leaves running then says nothing more (Mocha's flag for a test that timed out).
    const test = owner as (Mocha.Test & { timedOut?: boolean; callback?: (e: Error) => void }) | undefined;
    if (test && test === w.runner?.currentRunnable && test.type === 'test' && test.state === undefined && test.callback) {
      test.callback(new Error(`Uncaught in this test:\n${lineOf({ kind, error, owner })}`));
      test.timedOut = true;
    } else w.arrivals.push({ kind, error, owner });
  };
  const listen = (win: Window) => {
    win.addEventListener('error', (e) => arrive('uncaught error', e.error ?? e.message));
    win.addEventListener('unhandledrejection', (e) => arrive('unhandled rejection', e.reason));
  };
  const w: Watch = { arrivals: [], expectations: [], listen };
  page[KEY] = w;
  listen(window);

  // The test framework's script, after this one, defines window.mocha: its run is taken then, and
  // the checks go last among the root hooks, after those every test file adds.
  type BrowserMocha = Mocha & { run(fn?: (failures: number) => void): Mocha.Runner };
  Object.defineProperty(window, 'mocha', {
    configurable: true,
    enumerable: true,
    get: () => undefined,
    set(m: BrowserMocha) {
      Object.defineProperty(window, 'mocha', { value: m, writable: true, configurable: true, enumerable: true });
      const run = m.run;
      m.run = function (this: BrowserMocha, fn) {
        m.suite.afterEach('uncaught errors and rejections', async function (this: Mocha.Context) {
          await settle();
          const test = this.currentTest as (Mocha.Test & { err?: Error }) | undefined;
          const error = check(test);
          // A test failed already (its timeout, say) shows that failure alone: this one goes with it.
          if (error && test?.isFailed() && test.err) test.err.message += `\n${error.message}`;
          else if (error) (this.test as Mocha.Hook).error(error);
        });
        m.suite.afterAll('uncaught errors and rejections', async function (this: Mocha.Context) {
          await settle();
          const error = check(undefined);
          if (error) throw error;
        });
        w.runner = run.call(this, fn);
        // Mocha's own window.onerror fails the runnable at hand for an uncaught error (not a
        // rejection), and stops the file if that one has passed: the checks here do it for both.
        window.onerror = null;
        return w.runner;
      };
    },
  });
  return w;
}

/**
 * Two rounds of the page's task queue, for what the test left in flight (a rejection is reported
 * in a task after the one in which it was left unhandled).
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 0));
}

/**
 * From the root afterEach (`test`: the test that ends) or the root after hook (undefined): each
 * arrival not expected fails the test (or before/after hook) it is charged to, as does each
 * expectation of that test not met. The test that ends fails through the hook (`hook.error`: Mocha
 * then fails the test, not the hook, and goes on); one that ended before (an arrival after its
 * check) or a before/after hook fails through the runner, as Mocha fails a runnable for an uncaught
 * error. Returns the error for the test that ends, with what arrived before the run began.
 */
function check(test: Mocha.Test | undefined): Error | undefined {
  const failures = new Map<Mocha.Runnable | undefined, string[]>();
  const fail = (owner: Mocha.Runnable | undefined, line: string) => failures.set(owner, [...(failures.get(owner) ?? []), line]);
  for (const arrival of watch.arrivals.splice(0)) fail(arrival.owner, lineOf(arrival));
  for (const x of [...watch.expectations]) {
    if (test && x.owner !== test) continue;
    watch.expectations.splice(watch.expectations.indexOf(x), 1);
    fail(x.owner, `expected an uncaught error or rejection matching ${String(x.match)}; none arrived`);
  }
  const here: string[] = [];
  for (const [owner, lines] of failures) {
    const when = !owner ? 'before the run began' : owner === test ? 'in this test' : 'after it ended';
    const message = `Uncaught ${when}:\n${lines.join('\n')}`;
    if (!owner || owner === test) here.push(message);
    else (watch.runner as unknown as { fail(r: Mocha.Runnable, e: Error, force: boolean): void }).fail(owner, new Error(message), true);
  }
  return here.length ? new Error(here.join('\n')) : undefined;
}

/**
 * Declares that the running test (or hook) provokes an uncaught error or unhandled rejection whose
 * text (`Name: message`) matches `match`: that one does not fail it, and the test fails if none
 * arrives by its end. Resolves with the error (the rejection's reason) once it arrives.
 */
export function expectUncaught(match: RegExp | string): Promise<unknown> {
  return new Promise((arrived) => watch.expectations.push({ match, owner: ownerNow(), arrived }));
}
