/**
 * Scenario B: attach to one task of a running two-task application and pause/resume it
 * while the other task keeps printing. The executive (started here with --echo) is the
 * independent witness of which task runs.
 */
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const fake = require("./fake-vscode");
const { PROGRAMS, adapter, compile, record, sleep, startExecutive, stopAdapter, tempDir, until } = require("./support");

fake.install();

describe("scenario B: attach to one task of a running multi-task app", function () {
  let dir;
  let executive;
  let dc;
  let worker;
  let output;

  /** How many lines `app` printed during the next `ms` milliseconds. */
  async function printedDuring(app, ms) {
    const before = executive.output(app).length;
    await sleep(ms);
    return executive.output(app).length - before;
  }

  before(async function () {
    dir = tempDir();
    const images = compile(dir, path.join(PROGRAMS, "ticker.c"), path.join(PROGRAMS, "worker.c"));
    executive = await startExecutive(images, dir);
    await until(() => executive.output("worker").length > 0 && executive.output("ticker").length > 0, "both tasks' output");
    worker = executive.pidOf("worker");
    dc = adapter(dir);
    output = record(dc, "output");
    await dc.start();
  });

  after(async function () {
    try {
      if (dc) await stopAdapter(dc);
    } finally {
      if (executive) await executive.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("attaches to the worker task by PID; its task is a thread", async function () {
    const initialized = dc.waitForEvent("initialized");
    await dc.initializeRequest({ adapterID: "hsx", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" });
    await dc.attachRequest({ pid: worker, port: executive.port });
    await initialized;
    await dc.configurationDoneRequest();
    const threads = (await dc.threadsRequest()).body.threads;
    assert.ok(threads.some((t) => t.id === worker), JSON.stringify(threads));
    assert.ok((await printedDuring("worker", 300)) > 0, "attaching leaves the worker running");
  });

  it("pauses the worker: it stops in worker.c while the ticker keeps printing", async function () {
    const stopped = dc.waitForEvent("stopped");
    await dc.pauseRequest({ threadId: worker });
    const event = await stopped;
    assert.equal(event.body.reason, "pause");
    assert.equal(event.body.threadId, worker);
    const frames = (await dc.stackTraceRequest({ threadId: worker })).body.stackFrames;
    const main = frames.find((frame) => frame.name === "main");
    assert.ok(main && path.basename(main.source.path) === "worker.c", JSON.stringify(frames));
    await sleep(100); // a line already on its way may still be echoed
    assert.equal(await printedDuring("worker", 600), 0, "the paused worker prints nothing");
    const shown = output.length;
    assert.ok((await printedDuring("ticker", 600)) >= 5, "the other task keeps printing");
    const ticks = output.slice(shown).filter((o) => o.category === "stdout" && o.output.includes("[ticker "));
    assert.ok(ticks.length > 0, "and its output reaches the debug console, prefixed by its task");
  });

  it("resumes the worker: it prints again, and so does the ticker", async function () {
    const continued = dc.continueRequest({ threadId: worker });
    await continued;
    await until(() => executive.output("worker").length > 0, "worker output");
    assert.ok((await printedDuring("worker", 600)) > 0, "the resumed worker prints");
    assert.ok((await printedDuring("ticker", 600)) >= 5, "the ticker still prints");
  });

  it("shows the executive's tasks, mailboxes and values to the extension's views", async function () {
    const tasks = (await dc.customRequest("hsx/tasks")).body.tasks;
    assert.deepEqual(tasks.map((t) => t.app_name).sort(), ["ticker", "worker"]);
    const mailboxes = (await dc.customRequest("hsx/mailboxes")).body;
    const targets = mailboxes.descriptors.map((d) => d.target);
    assert.ok(targets.includes(`svc:stdio.out@${worker}`), targets.join(", "));
    const { values, commands } = (await dc.customRequest("hsx/values")).body;
    assert.deepEqual(values.map((v) => [v.name, v.last_value, v.owner_pid]), [["gain", 2.5, worker]]);
    assert.deepEqual(commands.map((c) => [c.name, c.owner_pid]), [["rounds", worker]]);
  });

  it("the extension's views show them: tasks, mailboxes, values", async function () {
    const recorded = fake.reset();
    require("../out/extension").activate({ subscriptions: [] });
    fake.debug.activeDebugSession = { type: "hsx", customRequest: async (command) => (await dc.customRequest(command)).body };
    const tasks = await recorded.trees["hsx.tasks"].getChildren();
    assert.deepEqual(tasks.map((t) => t.label).sort(), [`${executive.pidOf("ticker")} ticker`, `${worker} worker`]);
    assert.equal(recorded.trees["hsx.tasks"].getTreeItem(tasks[0]).collapsibleState, fake.TreeItemCollapsibleState.Collapsed);
    const mailboxes = await recorded.trees["hsx.mailboxes"].getChildren();
    assert.ok(mailboxes.some((m) => m.label === `svc:stdio.out@${worker}`));
    const [values, commands] = await recorded.trees["hsx.values"].getChildren();
    assert.deepEqual(values.children.map((v) => [v.label, v.description]), [["gain", "2.5"]]);
    assert.deepEqual(commands.children.map((c) => [c.label, c.description]), [["rounds", `PID ${worker}`]]);
  });

  it("records the executive's timeline from the extension's commands", async function () {
    const saved = path.join(dir, "run.pftrace");
    const recorded = fake.reset({ saveTo: saved });
    require("../out/extension").activate({ subscriptions: [] });
    fake.debug.activeDebugSession = { type: "hsx", customRequest: async (command, args) => (await dc.customRequest(command, args)).body };
    await recorded.commands["hsx.startTimeline"]();
    assert.match(recorded.infos.at(-1), /recording what every task does/);
    await until(async () => (await dc.customRequest("hsx/timeline", { op: "status" })).body.records > 10, "records");
    await recorded.commands["hsx.stopTimeline"]();
    assert.deepEqual(recorded.errors, []);
    assert.match(recorded.saveDialogs[0].defaultUri.fsPath, /timeline\.pftrace$/);
    assert.match(recorded.infos.at(-1), new RegExp(`wrote \\d+ events to ${saved} \\(open it in ui\\.perfetto\\.dev\\)`));
    const trace = fs.readFileSync(saved);
    assert.equal(trace[0], 0x0a); // Trace.packet, field 1
    assert.ok(trace.includes(Buffer.from(`ticker (pid ${executive.pidOf("ticker")})`)), "the ticker's track");
    assert.equal((await dc.customRequest("hsx/timeline", { op: "status" })).body.recording, false);
  });

  it("disconnects and leaves the worker running", async function () {
    await dc.disconnectRequest({ terminateDebuggee: false });
    assert.ok((await printedDuring("worker", 600)) > 0, "the worker runs on after the debugger left");
  });
});
