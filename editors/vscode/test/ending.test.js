/**
 * How a session ends, as VS Code sees it: after `disconnect` the adapter exits with status 0
 * and nothing on stderr (anything else is reported as an adapter crash), and an executive
 * it started for the session does not outlive it, even when it is killed outright.
 */
"use strict";
const assert = require("node:assert/strict");
const net = require("node:net");
const path = require("node:path");
const { PROGRAMS, freePort, listening, queue, spawnedAdapter, until } = require("./support");

const PROGRAM = path.join(PROGRAMS, "scale.c");

describe("the end of a debug session", function () {
  let session; // the adapter's process and client
  let port; // where it starts an executive of its own

  /** A fresh adapter that launched scale.c with an executive of its own on `port`, stopped on entry. */
  async function launched() {
    session = spawnedAdapter();
    const dc = session.client;
    const stops = queue(dc, "stopped");
    const initialized = dc.waitForEvent("initialized");
    await dc.initializeRequest({ adapterID: "hsx", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" });
    const launch = dc.launchRequest({ program: PROGRAM, port, stopOnEntry: true });
    await initialized;
    await dc.configurationDoneRequest();
    await launch;
    assert.equal((await stops.next()).body.reason, "entry");
    assert.ok(await listening(port), "the adapter started an executive on the port");
    return dc;
  }

  afterEach(async function () {
    if (session && session.child.exitCode === null && session.child.signalCode === null) session.child.kill("SIGKILL");
    // a test that failed must not leave its executive for the next run to find
    if (port && (await listening(port))) {
      const socket = net.connect(port, "127.0.0.1", () => socket.end('{"cmd":"shutdown"}\n'));
      socket.on("error", () => {});
    }
  });

  it("exits with status 0 and nothing on stderr after disconnect", async function () {
    port = await freePort();
    const dc = await launched();
    await dc.disconnectRequest({});
    const { code, signal } = await session.exited;
    assert.deepEqual({ code, signal, stderr: session.stderr() }, { code: 0, signal: null, stderr: "" });
  });

  it("takes the executive it started with it when it is killed (SIGKILL)", async function () {
    port = await freePort();
    await launched();
    session.child.kill("SIGKILL");
    await session.exited;
    await until(async () => !(await listening(port)), `the executive on port ${port} to end`, 20000);
  });
});
