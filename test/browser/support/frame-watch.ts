/**
 * Loaded first by the rig's same-origin frames (tab-frame.html, load-frame.html): their uncaught
 * errors and unhandled rejections fail the test at hand, as the test page's own do (uncaught.ts,
 * which the test page loaded and keeps on its window); and their buffer of resource timings does not
 * fill up (timings.ts).
 */
import './timings.ts';

const watch = (parent as unknown as Record<symbol, { listen(win: Window): void } | undefined>)[Symbol.for('wallet-elements.uncaught')];
if (!watch) throw new Error('frame-watch: the test page has no watch on uncaught errors (uncaught.ts)');
watch.listen(window);
