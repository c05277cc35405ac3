/**
 * The extension's parts that run without VS Code: finding `hsx dap`, how the views show
 * tasks, mailboxes and values, the manifest's debugger contribution, and the .vsix.
 */
"use strict";
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { REPO, tempDir } = require("./support");
const { AdapterNotFound, candidates, findAdapter, probe } = require("../out/python");
const { mailboxNodes, taskNodes, valueNodes } = require("../out/format");

const VENV_PYTHON = path.join(REPO, ".venv", "bin", "python");

describe("finding hsx dap", function () {
  it("uses the configured interpreter, and only it", function () {
    const [only, ...rest] = candidates(VENV_PYTHON, [REPO]);
    assert.deepEqual([only.command, only.args], [VENV_PYTHON, ["-m", "hsx", "dap"]]);
    assert.equal(rest.length, 0);
    assert.equal(probe(only), undefined, "the repository's venv runs hsx dap");
  });

  it("finds a workspace's .venv before PATH", function () {
    const [first] = candidates("", [REPO]);
    assert.equal(first.command, VENV_PYTHON);
  });

  it("says what it tried when the configured interpreter does not exist", function () {
    assert.throws(
      () => findAdapter("/nonexistent/python3", []),
      (error) =>
        error instanceof AdapterNotFound &&
        error.message.includes("/nonexistent/python3 -m hsx dap (the hsx.pythonPath setting): not found") &&
        error.message.includes("hsx.pythonPath"),
    );
  });

  it("says what it tried when Python lacks HSX", function () {
    const dir = tempDir();
    try {
      const python = path.join(dir, "python");
      fs.writeFileSync(python, "#!/bin/sh\necho 'No module named hsx' >&2\nexit 1\n", { mode: 0o755 });
      assert.throws(() => findAdapter(python, []), /No module named hsx/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the views' rows", function () {
  it("shows a task with its state, wait and fault", function () {
    const [waiting, faulted] = taskNodes([
      { pid: 2, app_name: "worker", state: "sleeping", pc: 0x40, wait: { kind: "sleep", ms: 20 } },
      { pid: 3, app_name: "bad", state: "faulted", fault: { kind: "bus", pc: 0x1c, message: "read at 0x0" } },
    ]);
    assert.equal(waiting.label, "2 worker");
    assert.equal(waiting.description, "sleeping (sleep 20 ms)");
    assert.deepEqual(waiting.children.find((c) => c.label === "pc"), { label: "pc", description: "0x0040" });
    assert.equal(faulted.icon, "error");
    assert.deepEqual(faulted.children.find((c) => c.label === "fault"), {
      label: "fault",
      description: "bus at 0x001c",
      tooltip: "read at 0x0",
    });
  });

  it("shows a mailbox's fill, readers and waiters", function () {
    const [node] = mailboxNodes([
      {
        descriptor_id: 7,
        target: "app:readings",
        owner_pid: 1,
        capacity: 64,
        bytes_used: 20,
        queue_depth: 2,
        readers: [{ pid: 2, handle: 4, pending: 2 }],
        waiters: [3],
        taps: [],
      },
    ]);
    assert.equal(node.label, "app:readings");
    assert.equal(node.description, "2 queued");
    assert.deepEqual(
      node.children.map((c) => `${c.label}: ${c.description}`),
      ["owner: PID 1", "queued: 2 messages, 20/64 bytes", "reader PID 2: handle 4, 2 pending", "waiting: PID 3"],
    );
  });

  it("shows values with units and commands by qualified name", function () {
    const [values, commands] = valueNodes(
      [{ oid: 0x101, name: "temperature", group_name: "room", last_value: 21.5, unit: "C", owner_pid: 1 }],
      [{ oid: 0x103, name: "stats", owner_pid: 1, help: "sum of squares" }],
    );
    assert.deepEqual([values.label, values.description], ["Values", "1"]);
    assert.deepEqual([values.children[0].label, values.children[0].description], ["room.temperature", "21.5 C"]);
    assert.deepEqual([commands.children[0].label, commands.children[0].tooltip], ["stats", "0x0103: sum of squares"]);
  });
});

describe("package.json's debugger contribution", function () {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
  const [debuggerEntry] = manifest.contributes.debuggers;
  const schema = debuggerEntry.configurationAttributes;

  /** The attributes docs/dap.md documents for a request: the first column of its table. */
  function documented(heading) {
    const text = fs.readFileSync(path.join(REPO, "docs", "dap.md"), "utf8");
    const section = text.split(/^## /m).find((part) => part.startsWith(heading));
    assert.ok(section, `docs/dap.md has a section "${heading}"`);
    const names = [...section.matchAll(/^\| ((?:`\w+`(?:,| or|\s|\(|\))*)+)/gm)].flatMap((m) => m[1].match(/\w+/g));
    return new Set(names);
  }

  it("offers only attributes the adapter documents", function () {
    const launch = documented("Launching a program");
    const attach = documented("Attaching to a running task");
    assert.deepEqual(Object.keys(schema.launch.properties).filter((name) => !launch.has(name)), []);
    assert.deepEqual(Object.keys(schema.attach.properties).filter((name) => !attach.has(name)), []);
  });

  it("has snippets and an initial configuration the schema accepts", function () {
    const bodies = [...debuggerEntry.initialConfigurations, ...debuggerEntry.configurationSnippets.map((s) => s.body)];
    assert.ok(bodies.some((b) => b.request === "launch") && bodies.some((b) => b.request === "attach"));
    for (const body of bodies) {
      assert.equal(body.type, "hsx");
      const attributes = schema[body.request];
      for (const name of Object.keys(body))
        if (!["type", "request", "name"].includes(name))
          assert.ok(name in attributes.properties, `${body.name}: ${name} is not in the ${body.request} schema`);
      for (const name of attributes.required ?? []) assert.ok(name in body, `${body.name} lacks ${name}`);
    }
  });

  it("enables breakpoints in C and MVASM files", function () {
    assert.deepEqual(manifest.contributes.breakpoints.map((b) => b.language).sort(), ["c", "mvasm"]);
    assert.deepEqual(manifest.contributes.languages.find((l) => l.id === "mvasm").extensions, [".mvasm"]);
  });
});

describe("the .vsix", function () {
  it("npm run package's vsce writes one with the manifest, the compiled code and the grammar", function () {
    const dir = tempDir();
    try {
      const vsix = path.join(dir, "hsx-debug.vsix");
      const vsce = path.join(__dirname, "..", "node_modules", ".bin", "vsce");
      const script = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).scripts.package;
      assert.match(script, /vsce package --no-dependencies --allow-missing-repository -o hsx-debug\.vsix$/);
      execFileSync(vsce, ["package", "--no-dependencies", "--allow-missing-repository", "-o", vsix], {
        cwd: path.join(__dirname, ".."),
        stdio: "pipe",
      });
      const zip = fs.readFileSync(vsix).toString("latin1"); // entry names are stored as text
      for (const entry of ["extension/package.json", "extension/out/extension.js", "extension/syntaxes/mvasm.tmLanguage.json", "extension/readme.md"])
        assert.ok(zip.includes(entry), `${entry} in the .vsix`);
      assert.ok(!zip.includes("extension/test/"), "no tests in the .vsix");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
