/**
 * Scenario A: launch a C program under `hsx dap` with Microsoft's DebugClient and walk it
 * the way VS Code does -- breakpoint, stop, stack, variables, next/stepIn/stepOut,
 * evaluate, setExpression, continue, output, exit.
 */
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { PROGRAMS, adapter, freePort, lineOf, queue, record, stopAdapter, until } = require("./support");

const PROGRAM = path.join(PROGRAMS, "scale.c");
const LINE = {
  start: lineOf(PROGRAM, 'printf("start\\n");'),
  call: lineOf(PROGRAM, "total = scale(p.x, 10);"),
  result: lineOf(PROGRAM, "int result = value * factor;"),
};

const samePath = (a, b) => fs.realpathSync(a) === fs.realpathSync(b);

describe("scenario A: launch a C program", function () {
  let dc;
  let output;
  let stops;
  let thread;

  async function stopped(reason, line) {
    const event = await stops.next();
    assert.equal(event.body.reason, reason);
    thread = event.body.threadId;
    const stack = (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames;
    assert.ok(stack.length >= 1, "a stopped thread has frames");
    if (line !== undefined) assert.ok([line].flat().includes(stack[0].line), `stopped on line ${stack[0].line}, expected ${line}`);
    return stack;
  }

  async function variables(frameId, scopeName) {
    const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
    const scope = scopes.find((s) => new RegExp(scopeName, "i").test(s.name));
    assert.ok(scope, `a ${scopeName} scope among ${scopes.map((s) => s.name).join(", ")}`);
    const vars = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
    return Object.fromEntries(vars.map((v) => [v.name, v]));
  }

  before(async function () {
    dc = adapter();
    output = record(dc, "output");
    stops = queue(dc, "stopped");
    await dc.start();
  });

  after(async function () {
    await stopAdapter(dc);
  });

  it("initializes and launches; the breakpoint is verified on its line", async function () {
    const initialized = dc.waitForEvent("initialized");
    const capabilities = (await dc.initializeRequest({ adapterID: "hsx", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })).body;
    assert.equal(capabilities.supportsConfigurationDoneRequest, true);
    assert.deepEqual(capabilities.completionTriggerCharacters, [".", ">"]);
    await dc.launchRequest({ program: PROGRAM, port: await freePort(), stopOnEntry: false });
    await initialized;
    const reply = await dc.setBreakpointsRequest({ source: { path: PROGRAM }, breakpoints: [{ line: LINE.start }] });
    const [breakpoint] = reply.body.breakpoints;
    assert.equal(breakpoint.verified, true, breakpoint.message);
    assert.equal(breakpoint.line, LINE.start);
    await dc.configurationDoneRequest();
  });

  it("stops at the breakpoint with main's source and line on the stack", async function () {
    const stack = await stopped("breakpoint", LINE.start);
    assert.match(stack[0].name, /main/);
    assert.ok(stack[0].source && samePath(stack[0].source.path, PROGRAM), JSON.stringify(stack[0].source));
  });

  it("shows the locals with their values; a struct expands", async function () {
    const [frame] = (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames;
    const locals = await variables(frame.id, "local");
    assert.equal(locals.total.value, "0");
    assert.ok(locals.p.variablesReference > 0, "p is expandable");
    const fields = (await dc.variablesRequest({ variablesReference: locals.p.variablesReference })).body.variables;
    assert.deepEqual(
      Object.fromEntries(fields.map((v) => [v.name, v.value])),
      { x: "3", y: "4" },
    );
  });

  it("steps over the printf (next) and its output arrives", async function () {
    await dc.nextRequest({ threadId: thread });
    await stopped("step", LINE.call);
    await until(() => output.some((o) => o.output.includes("start")), "the output of printf(\"start\")");
  });

  it("steps into scale (stepIn) with its arguments", async function () {
    await dc.stepInRequest({ threadId: thread });
    const stack = await stopped("step", LINE.result);
    assert.match(stack[0].name, /scale/);
    assert.match(stack[1].name, /main/);
    assert.equal(stack[1].line, LINE.call);
    const visible = { ...(await variables(stack[0].id, "arg|local")) };
    assert.equal(visible.value.value, "3");
    assert.equal(visible.factor.value, "10");
  });

  it("steps out of scale (stepOut) back into main", async function () {
    await dc.stepOutRequest({ threadId: thread });
    const stack = await stopped("step", [LINE.call, LINE.call + 1]);
    assert.match(stack[0].name, /main/);
  });

  it("evaluates an expression in main's frame", async function () {
    const [frame] = (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames;
    const reply = await dc.evaluateRequest({ expression: "p.x * 10 + p.y", frameId: frame.id, context: "watch" });
    assert.equal(reply.body.result, "34");
  });

  it("changes a watched field (setExpression) and the program's output follows", async function () {
    const [frame] = (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames;
    const reply = await dc.customRequest("setExpression", { expression: "p.y", value: "p.y + 1", frameId: frame.id });
    assert.equal(reply.body.value, "5");
  });

  it("assigns in the debug console and completes a struct's members after '.'", async function () {
    const [frame] = (await dc.stackTraceRequest({ threadId: thread })).body.stackFrames;
    const assigned = await dc.evaluateRequest({ expression: "p.x = p.x + 4", frameId: frame.id, context: "repl" });
    assert.equal(assigned.body.result, "7");
    const watched = await dc.evaluateRequest({ expression: "p.x", frameId: frame.id, context: "watch" });
    assert.equal(watched.body.result, "7");
    const targets = (await dc.customRequest("completions", { text: "p.", column: 3, frameId: frame.id })).body.targets;
    assert.deepEqual(targets.map((t) => t.label).sort(), ["x", "y"]);
  });

  it("continues to the end: output, exited with the program's status, terminated", async function () {
    const exited = dc.waitForEvent("exited");
    const terminated = dc.waitForEvent("terminated");
    await dc.continueRequest({ threadId: thread });
    assert.equal((await exited).body.exitCode, 3);
    await terminated;
    const text = output.filter((o) => o.category === "stdout").map((o) => o.output).join("");
    assert.match(text, /start\n[^]*total 35\n/);
  });
});
