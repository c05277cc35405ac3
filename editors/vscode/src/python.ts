/**
 * Finding the command that starts `hsx dap`: the configured interpreter, a virtual
 * environment in the workspace, the `hsx` script on PATH, or `python3 -m hsx`. Each
 * candidate is tried (`... dap --help`) so a wrong setting fails with a message that says
 * what was tried, not with a silent adapter crash. No `vscode` import: tested with mocha.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface AdapterCommand {
  command: string;
  args: string[];
  /** Where the candidate came from, for messages. */
  origin: string;
}

export class AdapterNotFound extends Error {}

const IS_WINDOWS = process.platform === "win32";

/** Interpreters of the usual virtual-environment folders of a workspace folder. */
export function venvPythons(folder: string): string[] {
  const bin = IS_WINDOWS ? path.join("Scripts", "python.exe") : path.join("bin", "python");
  return [".venv", "venv"].map((name) => path.join(folder, name, bin));
}

/** Every way to start the adapter, best first. A configured interpreter is the only one. */
export function candidates(pythonPath: string, folders: string[]): AdapterCommand[] {
  const module = (python: string, origin: string): AdapterCommand => ({
    command: python,
    args: ["-m", "hsx", "dap"],
    origin,
  });
  if (pythonPath.trim()) return [module(pythonPath.trim(), "the hsx.pythonPath setting")];
  const found: AdapterCommand[] = [];
  for (const folder of folders)
    for (const python of venvPythons(folder))
      if (fs.existsSync(python)) found.push(module(python, `the workspace's ${path.basename(path.dirname(path.dirname(python)))}`));
  found.push({ command: "hsx", args: ["dap"], origin: "the hsx command on PATH" });
  found.push(module(IS_WINDOWS ? "python" : "python3", "Python on PATH"));
  return found;
}

/** Why a candidate does not start the adapter, or undefined when it does. */
export function probe(candidate: AdapterCommand, timeoutMs = 30000): string | undefined {
  const run = spawnSync(candidate.command, [...candidate.args, "--help"], {
    encoding: "utf8",
    timeout: timeoutMs,
    windowsHide: true,
  });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "not found" : run.error.message;
  }
  if (run.status === 0) return undefined;
  const said = `${run.stderr ?? ""}`.trim().split("\n").filter(Boolean).pop();
  return said ?? `exit status ${run.status}`;
}

/** The first candidate that starts `hsx dap`; AdapterNotFound says what was tried. */
export function findAdapter(
  pythonPath: string,
  folders: string[],
  check: (candidate: AdapterCommand) => string | undefined = probe,
): AdapterCommand {
  const tried: string[] = [];
  for (const candidate of candidates(pythonPath, folders)) {
    const problem = check(candidate);
    if (problem === undefined) return candidate;
    tried.push(`${[candidate.command, ...candidate.args].join(" ")} (${candidate.origin}): ${problem}`);
  }
  throw new AdapterNotFound(
    "Cannot start the HSX debug adapter (`hsx dap`). Tried:\n  " +
      tried.join("\n  ") +
      "\nInstall HSX into a Python environment (`pip install hsx`, or `pip install -e .` in a " +
      "checkout) and set `hsx.pythonPath` to that environment's interpreter.",
  );
}
