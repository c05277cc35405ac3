/**
 * The extension's VS Code side, activated against a recording `vscode` (fake-vscode.js):
 * how it starts `hsx dap`, which configurations it completes or refuses, and when its
 * views refresh. (The views' data through a real adapter: attach.test.js.)
 */
"use strict";
const assert = require("node:assert/strict");
const path = require("node:path");
const fake = require("./fake-vscode");
const { REPO, sleep } = require("./support");

fake.install();
const extension = require("../out/extension");

const VENV_PYTHON = path.join(REPO, ".venv", "bin", "python");

function activate(options) {
  const recorded = fake.reset(options);
  extension.activate({ subscriptions: [] });
  return recorded;
}

describe("the extension, activated", function () {
  it("starts hsx dap with the configured Python, in the configuration's cwd", function () {
    const { factories } = activate({ settings: { "hsx.pythonPath": VENV_PYTHON } });
    const executable = factories.hsx.createDebugAdapterDescriptor({ configuration: { cwd: REPO } });
    assert.deepEqual([executable.command, executable.args, executable.options], [VENV_PYTHON, ["-m", "hsx", "dap"], { cwd: REPO }]);
  });

  it("does not start a session when Python lacks HSX, and says which setting to change", function () {
    const { factories, errors } = activate({ settings: { "hsx.pythonPath": "/nonexistent/python3" } });
    assert.throws(() => factories.hsx.createDebugAdapterDescriptor({ configuration: {} }), /Cannot start the HSX debug adapter/);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /\/nonexistent\/python3 -m hsx dap .*not found[^]*hsx\.pythonPath/);
  });

  it("debugs the C file in the editor when there is no launch.json", function () {
    const { providers } = activate({ editorLanguage: "c" });
    assert.deepEqual(providers.hsx.resolveDebugConfiguration(undefined, {}), {
      type: "hsx",
      request: "launch",
      name: "HSX: debug the current file",
      program: "${file}",
    });
  });

  it("refuses configurations that cannot work, saying what is missing", function () {
    const { providers, errors } = activate({ editorLanguage: "python" });
    const resolve = (config) => providers.hsx.resolveDebugConfiguration(undefined, config);
    assert.equal(resolve({}), undefined);
    assert.equal(resolve({ type: "hsx", request: "launch", name: "x" }), undefined);
    assert.equal(resolve({ type: "hsx", request: "attach", name: "y", port: 9998 }), undefined);
    assert.deepEqual(errors.map((e) => e.match(/open a \.c|needs "program"|needs "pid" or "app"/)?.[0]), [
      "open a .c",
      'needs "program"',
      'needs "pid" or "app"',
    ]);
    const complete = { type: "hsx", request: "attach", name: "z", app: "sensor" };
    assert.equal(resolve(complete), complete);
  });

  it("refreshes its views once per burst of stop/continue events, not on output", async function () {
    const { trackers, trees } = activate();
    const tracker = trackers.hsx.createDebugAdapterTracker({});
    const refreshed = Object.fromEntries(Object.keys(trees).map((id) => [id, 0]));
    for (const [id, tree] of Object.entries(trees)) tree.onDidChangeTreeData(() => refreshed[id]++);
    tracker.onDidSendMessage({ type: "event", event: "output" });
    await sleep(250);
    assert.deepEqual(Object.values(refreshed), [0, 0, 0]);
    tracker.onDidSendMessage({ type: "event", event: "stopped" });
    tracker.onDidSendMessage({ type: "event", event: "thread" });
    tracker.onDidSendMessage({ type: "response", command: "stackTrace" });
    await sleep(250);
    assert.deepEqual(refreshed, { "hsx.tasks": 1, "hsx.mailboxes": 1, "hsx.values": 1 });
  });

  it("shows nothing without an hsx session, and the error when a request fails", async function () {
    const { trees } = activate();
    assert.deepEqual(await trees["hsx.tasks"].getChildren(), []);
    fake.debug.activeDebugSession = { type: "hsx", customRequest: () => Promise.reject(new Error("no program is being debugged yet")) };
    const [row] = await trees["hsx.tasks"].getChildren();
    assert.deepEqual([row.label, row.description], ["not available", "no program is being debugged yet"]);
  });
});

describe("the timeline commands", function () {
  it("are contributed, and without an hsx session say to start one", async function () {
    const manifest = require("../package.json");
    const titles = manifest.contributes.commands.map((c) => c.title);
    assert.ok(titles.includes("Start Timeline Recording") && titles.includes("Stop Timeline Recording and Save…"));
    const { commands, errors, saveDialogs } = activate({});
    await commands["hsx.startTimeline"]();
    await commands["hsx.stopTimeline"]();
    assert.equal(errors.length, 2);
    assert.match(errors[0], /start or attach a debug session first/);
    assert.deepEqual(saveDialogs, []);
  });
});
