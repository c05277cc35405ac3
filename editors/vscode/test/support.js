/**
 * What the DebugClient tests share: the repository's `hsx` (from its .venv, as the README's
 * test command installs it), an `hsx dap` under Microsoft's DebugClient, executives started
 * on free ports, and source lines found by their text.
 */
"use strict";
const assert = require("node:assert/strict");
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { DebugClient } = require("@vscode/debugadapter-testsupport");

const REPO = path.resolve(__dirname, "..", "..", "..");
const PROGRAMS = path.join(__dirname, "programs");
const HSX = path.join(REPO, ".venv", process.platform === "win32" ? "Scripts/hsx.exe" : "bin/hsx");

function hsx() {
  if (!fs.existsSync(HSX))
    throw new Error(
      `${HSX} is missing: create the repository's virtual environment first ` +
        "(python3 -m venv .venv && .venv/bin/pip install -e '.[test]')",
    );
  return HSX;
}

/** A DebugClient driving `hsx dap` on stdio (HSX_DAP_STDERR=1 shows the adapter's stderr). */
function adapter(cwd = PROGRAMS) {
  const client = new DebugClient(hsx(), "dap", "hsx", { cwd }, process.env.HSX_DAP_STDERR === "1");
  client.defaultTimeout = 20000;
  return client;
}

/**
 * `hsx dap` spawned here, with a DebugClient talking to it: unlike `adapter()`, the test
 * sees the process -- `exited` resolves to its `{ code, signal }`, `stderr()` is what it
 * wrote there.
 */
function spawnedAdapter(cwd = PROGRAMS) {
  const child = spawn(hsx(), ["dap"], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const client = new DebugClient(hsx(), "dap", "hsx");
  client.defaultTimeout = 20000;
  client.connect(child.stdout, child.stdin);
  return { client, child, exited, stderr: () => stderr };
}

/** Does something accept connections on 127.0.0.1:`port`? */
function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** Ends the adapter; one that does not go within 5 s is left to mocha's exit. */
function stopAdapter(client) {
  return Promise.race([client.stop().catch(() => {}), sleep(5000)]);
}

/** Every event of `type` the client receives from now on, in order. */
function record(client, type) {
  const seen = [];
  client.on(type, (event) => seen.push(event.body));
  return seen;
}

/**
 * The events of `type` as a queue: `next()` gives the oldest one not taken yet, waiting up
 * to `ms` for it -- so an event that arrives before the test asks for it is not missed
 * (DebugClient's `waitForEvent` only sees events that come after the call).
 */
function queue(client, type) {
  const waiting = [];
  const arrived = [];
  client.on(type, (event) => (waiting.length ? waiting.shift()(event) : arrived.push(event)));
  return {
    next(ms = client.defaultTimeout) {
      if (arrived.length) return Promise.resolve(arrived.shift());
      return new Promise((resolve, reject) => {
        const take = (event) => {
          clearTimeout(timer);
          resolve(event);
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(take), 1);
          reject(new Error(`no '${type}' event within ${ms} ms`));
        }, ms);
        waiting.push(take);
      });
    },
  };
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The 1-based line of `file` that contains `text` (exactly one must). */
function lineOf(file, text) {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const found = lines.flatMap((line, index) => (line.includes(text) ? [index + 1] : []));
  assert.equal(found.length, 1, `${path.basename(file)} should contain ${JSON.stringify(text)} once`);
  return found[0];
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "hsx-dap-test-"));
}

/** Compiles C programs with `hsx cc -g -O0` into `dir`; returns the image paths. */
function compile(dir, ...sources) {
  return sources.map((source) => {
    const image = path.join(dir, path.basename(source, ".c") + ".hxe");
    execFileSync(hsx(), ["cc", "-g", "-O0", source, "-o", image], { stdio: "pipe" });
    return image;
  });
}

/** Waits until `check()` (or the promise it returns) is true, polling; fails with `what` after `ms`. */
async function until(check, what, ms = 10000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `hsx execd --port 0 --echo` with `images` loaded: `lines` collects the tasks' output as the
 * daemon echoes it (`[app pid] text`), `port` is where it listens, `stop()` ends it.
 */
async function startExecutive(images, cwd) {
  const args = ["execd", "--port", "0", "--echo", ...images.flatMap((image) => ["--load", image])];
  const child = spawn(hsx(), args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  let stderr = "";
  let pending = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    pending += chunk;
    const complete = pending.split("\n");
    pending = complete.pop();
    lines.push(...complete);
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const listening = () => lines.map((line) => /listening on [\d.]+:(\d+)/.exec(line)).find(Boolean);
  try {
    await until(() => listening() || child.exitCode !== null, "hsx execd to listen", 30000);
  } catch (error) {
    child.kill();
    throw error;
  }
  if (!listening()) throw new Error(`hsx execd did not start: ${stderr}`);
  return {
    port: Number(listening()[1]),
    lines,
    /** Output lines the task named `app` has written so far. */
    output: (app) => lines.filter((line) => line.startsWith(`[${app} `)),
    /** The PID the daemon's echo shows for `app`. */
    pidOf: (app) => Number(lines.map((line) => new RegExp(`^\\[${app} (\\d+)\\]`).exec(line)).find(Boolean)[1]),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

module.exports = {
  PROGRAMS,
  REPO,
  queue,
  adapter,
  compile,
  freePort,
  lineOf,
  listening,
  record,
  sleep,
  spawnedAdapter,
  startExecutive,
  stopAdapter,
  tempDir,
  until,
};
