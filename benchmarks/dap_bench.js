/**
 * Round trips through `hsx dap` measured with Microsoft's DebugClient, the way VS Code
 * drives the adapter:
 *   - `next` (a source-line step) from the request to the `stopped` event;
 *   - `variables` of a frame with 20 locals, right after each stop (nothing cached);
 *   - `threads` (one `ps` through the adapter) as the baseline of a request's cost.
 *
 *   (cd editors/vscode && npm ci) && node benchmarks/dap_bench.js [--steps 300]
 *
 * The program is built with -g -O0 by the adapter's launch, in an executive it starts on a
 * free port. Targets (issue 15): next <= 10 ms, variables <= 10 ms.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { adapter, freePort, lineOf, queue, stopAdapter, tempDir } = require("../editors/vscode/test/support");

const SOURCE = `#include <stdio.h>

int main(void) {
    int a = 1, b = 2, c = 3, d = 4, e = 5;
    int f = 6, g = 7, h = 8, k = 9, j = 10;
    int l = 11, m = 12, n = 13, o = 14, p = 15;
    int q = 16, r = 17, s = 18, u = 19;
    for (int t = 0; t < 1000000000; t++) {
        a += b; /* loop body */
        c += d ^ e;
        f += g * h;
        k += j - l;
        m += n + o;
        p += q & r;
        s += u;
    }
    printf("%d\\n", a + c + f + k + m + p + s);
    return 0;
}
`;

const steps = Number(process.argv[process.argv.indexOf("--steps") + 1]) || 300;
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

function summary(name, samples, target) {
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const verdict = target === undefined ? "" : at(0.5) <= target ? `  ok (target ${target} ms)` : `  OVER the ${target} ms target`;
  return `${name.padEnd(44)}${at(0.5).toFixed(2).padStart(9)}${at(0.9).toFixed(2).padStart(9)}${sorted.at(-1).toFixed(2).padStart(9)}${String(samples.length).padStart(7)}${verdict}`;
}

async function main() {
  const dir = tempDir();
  const program = path.join(dir, "locals20.c");
  fs.writeFileSync(program, SOURCE);
  const dc = adapter(dir);
  const stops = queue(dc, "stopped");
  await dc.start();
  try {
    const initialized = dc.waitForEvent("initialized");
    await dc.initializeRequest({ adapterID: "hsx", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" });
    // The adapter builds the program and starts an executive before it says `initialized`.
    await dc.launchRequest({ program, port: await freePort(), stopOnEntry: false });
    await initialized;
    await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [{ line: lineOf(program, "loop body") }] });
    await dc.configurationDoneRequest();
    const thread = (await stops.next(60000)).body.threadId;
    await dc.setBreakpointsRequest({ source: { path: program }, breakpoints: [] });

    const next = [];
    const variables = [];
    const afterStop = [];
    for (let i = 0; i < steps + 20; i++) {
      const started = process.hrtime.bigint();
      await dc.nextRequest({ threadId: thread });
      await stops.next();
      const stepped = ms(started);
      const shown = process.hrtime.bigint();
      const [frame] = (await dc.stackTraceRequest({ threadId: thread, levels: 20 })).body.stackFrames;
      const scope = (await dc.scopesRequest({ frameId: frame.id })).body.scopes.find((s) => s.name === "Locals");
      const listed = process.hrtime.bigint();
      const locals = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
      const listing = ms(listed);
      if (locals.length !== 20) throw new Error(`expected 20 locals, got ${locals.map((v) => v.name).join(", ")}`);
      if (i < 20) continue; // warm-up
      next.push(stepped);
      variables.push(listing);
      afterStop.push(ms(shown));
    }
    const threads = [];
    for (let i = 0; i < steps; i++) {
      const started = process.hrtime.bigint();
      await dc.threadsRequest();
      threads.push(ms(started));
    }
    const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
    console.log(`hsx dap round trips, ${steps} each after 20 warm-up (node ${process.version})`);
    console.log(`${"request".padEnd(44)}${"median".padStart(9)}${"p90".padStart(9)}${"max".padStart(9)}${"n".padStart(7)}  (ms)`);
    console.log(summary("next -> stopped event", next, 10));
    console.log(summary("variables, frame with 20 locals", variables, 10));
    console.log(summary("stackTrace + scopes + variables after a stop", afterStop));
    console.log(summary("threads (baseline: one ps through dap)", threads));
    console.log(`ratios to the baseline (medians): next ${(median(next) / median(threads)).toFixed(1)}x, ` +
      `variables ${(median(variables) / median(threads)).toFixed(1)}x`);
    process.exitCode = median(next) <= 10 && median(variables) <= 10 ? 0 : 1;
  } finally {
    await stopAdapter(dc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`dap_bench: ${error.message}`);
  process.exit(2);
});
