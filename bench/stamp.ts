/**
 * Stamp throughput in Chromium (bench/pages/stamp.ts): rounds of fixed time slices, the order of
 * contenders rotated every round, all in one page so that they share the browser, the thread and
 * the moment. The ratio to the floor is taken per round, then its median is reported.
 */
import type { Browser } from 'playwright';
import { bundlePages, median, type StaticServer } from './browser.ts';

export interface StampResult {
  payloadBytes: number;
  rounds: number;
  sliceMs: number;
  checks: Record<string, string>;
  /** Median stamps per second over the rounds. */
  opsPerSecond: Record<string, number>;
  /** Median over rounds of (contender / floor) measured in the same round. */
  ratioToFloor: Record<string, number>;
  /** Median over rounds of (ours / turnkey) measured in the same round. */
  oursToTurnkey: number;
}

interface BenchGlobal {
  bench: {
    setup(): Promise<{ checks: Record<string, string>; payloadBytes: number }>;
    run(name: string, ms: number): Promise<number>;
  };
}

export const STAMP_CONTENDERS = ['floor', 'ours', 'turnkey', 'ours-reload'] as const;

export async function prepareStampBench(): Promise<void> {
  await bundlePages({ stamp: 'bench/pages/stamp.ts' });
}

export async function runStampBench(browser: Browser, server: StaticServer, opts: { rounds?: number; sliceMs?: number } = {}): Promise<StampResult> {
  const rounds = opts.rounds ?? 15;
  const sliceMs = opts.sliceMs ?? 300;
  const page = await browser.newPage();
  try {
    await page.goto(`${server.origin}/stamp.html`);
    await page.addScriptTag({ url: '/stamp.js', type: 'module' });
    await page.waitForFunction(() => 'bench' in globalThis);
    const { checks, payloadBytes } = await page.evaluate(() => (globalThis as unknown as BenchGlobal).bench.setup());
    for (const [name, verdict] of Object.entries(checks)) {
      if (verdict !== 'valid') throw new Error(`stamp bench: ${name} produced an invalid stamp`);
    }
    // Warm-up: JIT and the WebCrypto worker, not recorded.
    for (const name of STAMP_CONTENDERS) await page.evaluate(([n, ms]) => (globalThis as unknown as BenchGlobal).bench.run(n, ms), [name, 150] as const);

    const samples: Record<string, number[]> = Object.fromEntries(STAMP_CONTENDERS.map((n) => [n, []]));
    const ratios: Record<string, number[]> = Object.fromEntries(STAMP_CONTENDERS.map((n) => [n, []]));
    const oursToTurnkey: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = STAMP_CONTENDERS.map((_, i) => STAMP_CONTENDERS[(i + r) % STAMP_CONTENDERS.length]!);
      const round: Record<string, number> = {};
      for (const name of order) {
        round[name] = await page.evaluate(([n, ms]) => (globalThis as unknown as BenchGlobal).bench.run(n, ms), [name, sliceMs] as const);
      }
      for (const name of STAMP_CONTENDERS) {
        samples[name]!.push(round[name]!);
        ratios[name]!.push(round[name]! / round.floor!);
      }
      oursToTurnkey.push(round.ours! / round.turnkey!);
    }
    return {
      payloadBytes,
      rounds,
      sliceMs,
      checks,
      opsPerSecond: Object.fromEntries(STAMP_CONTENDERS.map((n) => [n, Math.round(median(samples[n]!))])),
      ratioToFloor: Object.fromEntries(STAMP_CONTENDERS.map((n) => [n, median(ratios[n]!)])),
      oursToTurnkey: median(oursToTurnkey),
    };
  } finally {
    await page.close();
  }
}
