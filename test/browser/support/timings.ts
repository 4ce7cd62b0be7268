/**
 * Loaded first by every test page (web-test-runner.config.mjs testRunnerHtml) and by the rig's
 * same-origin frames (frame-watch.ts). Tests count the requests a page made in its Resource Timing
 * entries, whose buffer keeps 250 by default: full, it leaves later requests out, and a count then
 * stands still, so that "no new request" would hold whatever the page asked for. The buffer is made
 * larger than any test file's requests.
 */
performance.setResourceTimingBufferSize(100_000);
